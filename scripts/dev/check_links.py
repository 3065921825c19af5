#!/usr/bin/env python3
"""Checks that every relative link in README.md and docs/*.md resolves: the file exists, and a
`#anchor` names a heading of the target Markdown file (GitHub's heading slugs).

Usage: scripts/dev/check_links.py [FILE.md ...]   (default: README.md docs/*.md)

Prints one line per broken link (file:line: target: why) and exits 1 when there is any, 0
otherwise. Links to http(s) and mailto addresses are not followed.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, result = {}, set()
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            result.add(base if n == 0 else f"{base}-{n}")
        cache[path] = result
    return cache[path]


def check(md):
    problems = []
    for number, line in prose_lines(md.read_text(encoding="utf-8")):
        line = re.sub(r"`[^`]*`", lambda m: "x" * len(m.group(0)) if "](" not in m.group(0) else m.group(0), line)
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            path = (md.parent / file_part).resolve() if file_part else md
            where = f"{md.relative_to(ROOT)}:{number}: {target}"
            if not path.exists():
                problems.append(f"{where}: no such file")
            elif anchor:
                if path.suffix != ".md":
                    problems.append(f"{where}: an anchor into a file that is not Markdown")
                elif anchor not in anchors(path):
                    problems.append(f"{where}: no heading with this anchor in {path.relative_to(ROOT)}")
    return problems


def main(argv):
    files = [Path(a).resolve() for a in argv] or [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    problems = [p for f in files for p in check(f)]
    links = sum(len(LINK.findall(l)) for f in files for _, l in prose_lines(f.read_text(encoding="utf-8")))
    for p in problems:
        print(p)
    print(f"check_links: {len(files)} files, {links} links, {len(problems)} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
