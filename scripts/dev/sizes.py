#!/usr/bin/env python3
"""Sizes a newcomer feels: the largest Swift files and functions in Sources/, the README's
lines and the CLI's lines. Function bodies are found by brace matching after `func`, `init`,
`deinit` or `subscript` (strings and comments skipped), so a closure counts toward the
function that holds it.

    scripts/dev/sizes.py [--top N] [--max-function L] [--max-file L]

With --max-function/--max-file it exits 1 when a function or a (non-generated) file is over
the limit, naming them; with --unique-types, when a type name is declared at the top level of
more than one file in Sources (one type per concept across modules)."""
import argparse, pathlib, re, sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DECL = re.compile(r'(?<![.\w])(func\s+[^\s(<]+|init[?!]?|deinit|subscript)\s*[(<{]')


def strip_code(text):
    """The text with string literals and comments blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(' ' * (j + 1 - i)); i = j + 1
        else:
            out.append(c); i += 1
    return ''.join(out)


def functions(path):
    code = strip_code(path.read_text())
    for m in DECL.finditer(code):
        start = code.find('{', m.start())
        if start < 0:
            continue
        # A protocol requirement has no body: the next `{` belongs to something else.
        between = code[m.end():start]
        if '}' in between or re.search(r'\n\s*((public|private|internal|fileprivate|mutating|static|nonisolated|@\w+)\s+)*(func|var|let|init|case|subscript|deinit)\b', between):
            continue
        depth, i = 0, start
        while i < len(code):
            if code[i] == '{':
                depth += 1
            elif code[i] == '}':
                depth -= 1
                if depth == 0:
                    break
            i += 1
        first = code.count('\n', 0, m.start()) + 1
        last = code.count('\n', 0, i) + 1
        yield last - first + 1, first, m.group(1).split()[-1]


TOP_TYPE = re.compile(r'^(?:(?:public|package|internal|fileprivate|private|final|indirect|@\w+(?:\([^)]*\))?)\s+)*'
                      r'(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)', re.M)


def duplicate_types(files):
    """Type names declared at the top level (column 0) of more than one place in Sources."""
    seen = {}
    for p in files:
        for m in TOP_TYPE.finditer(strip_code(p.read_text())):
            seen.setdefault(m.group(1), []).append(p)
    return {name: places for name, places in seen.items() if len(places) > 1}


def generated(path):
    return 'generated' in '\n'.join(path.read_text().splitlines()[:5]).lower()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--top', type=int, default=10)
    ap.add_argument('--max-function', type=int)
    ap.add_argument('--max-file', type=int)
    ap.add_argument('--unique-types', action='store_true')
    args = ap.parse_args()
    files = sorted((ROOT / 'Sources').rglob('*.swift'))
    file_sizes = sorted(((len(p.read_text().splitlines()), p) for p in files), reverse=True)
    funcs = sorted(((n, p, line, name) for p in files for n, line, name in functions(p)),
                   key=lambda t: -t[0])
    rel = lambda p: p.relative_to(ROOT)
    print('largest files:')
    for n, p in file_sizes[:args.top]:
        print(f'  {n:5d}  {rel(p)}' + ('  (generated)' if generated(p) else ''))
    print('largest functions:')
    for n, p, line, name in funcs[:args.top]:
        print(f'  {n:5d}  {rel(p)}:{line} {name}')
    cli = sum(len(p.read_text().splitlines()) for p in (ROOT / 'Sources/geocluster').glob('*.swift'))
    biggest_command = max((len(p.read_text().splitlines()), p.name) for p in (ROOT / 'Sources/geocluster').glob('*.swift'))
    print(f'README lines: {len((ROOT / "README.md").read_text().splitlines())}')
    print(f'CLI lines: {cli} (largest file {biggest_command[1]}, {biggest_command[0]})')
    bad = []
    if args.max_function:
        bad += [f'{rel(p)}:{line} {name} is {n} lines' for n, p, line, name in funcs if n > args.max_function]
    if args.max_file:
        bad += [f'{rel(p)} is {n} lines' for n, p in file_sizes if n > args.max_file and not generated(p)]
    if args.unique_types:
        bad += [f'type {name} is declared in ' + ', '.join(str(rel(p)) for p in places)
                for name, places in sorted(duplicate_types(files).items())]
    for b in bad:
        print('over the limit:', b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
