#!/usr/bin/env python3
"""Docs that stay true (`make structure` runs it; exit 1 on any finding):

1. The module map of docs/architecture.md is Package.swift's: one row per target under
   Sources/ (`| `Sources/NAME` | what it holds | depends on |`), and its last column lists
   exactly the target's dependencies (targets and products by name, `–` for none), as
   `swift package dump-package` reads the manifest.
2. Every command and flag the docs name exists: in README.md and docs/*.md, each
   `geocluster COMMAND …` of a `sh` block or an inline code span names a subcommand and only
   its options (`serve`'s are geocluster-serve's), as `--experimental-dump-help` lists them; a
   code span holding a flag alone (`--zoom 12`) names an option of some command, of a script
   or the Makefile of this repository, or of the few outside tools listed below.

Usage: scripts/dev/check_docs.py GEOCLUSTER GEOCLUSTER_SERVE (the two built executables);
SWIFT names the swift executable (default: swift on PATH).
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Flags of tools that are not ours, named in the docs: swift build's, Tippecanoe's.
OUTSIDE_FLAGS = {"static-swift-stdlib", "product", "accumulate-attribute"}
FLAG = r"(?<![\w-])--([a-z][a-z0-9-]*)"


def manifest_dependencies():
    """{target: [dependency names]} for the targets whose sources are under Sources/."""
    dump = json.loads(subprocess.run([os.environ.get("SWIFT", "swift"), "package", "dump-package"], cwd=ROOT, capture_output=True, text=True,
                                     check=True).stdout)
    targets = {}
    for target in dump["targets"]:
        path = target.get("path") or f"Sources/{target['name']}"
        if target["type"] == "test" or not path.startswith("Sources/"):
            continue
        targets[target["name"]] = [next(iter(d.values()))[0] for d in target["dependencies"]]
    return targets


def module_map():
    """{target: [names in its 'depends on' cell]} from docs/architecture.md's module table."""
    rows = {}
    for line in (ROOT / "docs" / "architecture.md").read_text().splitlines():
        m = re.match(r"\| `Sources/([\w-]+)` \|.*\| ([^|]*) \|$", line)
        if m:
            cell = m.group(2).strip()
            rows[m.group(1)] = [] if cell == "–" else [name.strip() for name in cell.split(",")]
    return rows


def check_module_map():
    found, manifest, documented = [], manifest_dependencies(), module_map()
    for name in sorted(set(manifest) - set(documented)):
        found.append(f"docs/architecture.md: no module row for `Sources/{name}` (a target of Package.swift)")
    for name in sorted(set(documented) - set(manifest)):
        found.append(f"docs/architecture.md: `Sources/{name}` is no target of Package.swift")
    for name in sorted(set(manifest) & set(documented)):
        if sorted(manifest[name]) != sorted(documented[name]):
            found.append(f"docs/architecture.md: `Sources/{name}` depends on {', '.join(manifest[name]) or '–'} "
                         f"(Package.swift), not {', '.join(documented[name]) or '–'}")
    return found


def command_options(executable):
    """{subcommand ('' for the root): its long option names}; a hidden one without help (a
    renamed flag kept only to be refused with its new name) is no option to document."""
    dump = json.loads(subprocess.run([executable, "--experimental-dump-help"], capture_output=True, text=True,
                                     check=True).stdout)
    options = {}

    def walk(command, name):
        options[name] = {n["name"] for a in command.get("arguments", []) if a.get("shouldDisplay", True) or a.get("abstract")
                         for n in a.get("names", []) if n["kind"] == "long"}
        for sub in command.get("subcommands", []):
            walk(sub, sub["commandName"])
    walk(dump["command"], "")
    return options


def repository_flags():
    """Flags the scripts and the Makefile of this repository define or pass."""
    flags = set()
    for path in [ROOT / "Makefile", *sorted((ROOT / "scripts").rglob("*"))]:
        if path.is_file() and path.suffix in ("", ".py", ".sh") and path.name != "check_docs.py":
            flags |= set(re.findall(r"""["' ]--([a-z][a-z0-9-]*)""", path.read_text(errors="replace")))
    return flags


def code_of(text):
    """(lines of the `sh` blocks, continuations joined; inline code spans outside blocks)."""
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M)
    lines = [line for block in blocks for line in block.replace("\\\n", " ").splitlines()]
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.S | re.M)
    return lines, re.findall(r"`([^`\n]+)`", prose)


def check_commands(cli, serve):
    commands = command_options(cli)
    commands["serve"] = command_options(serve)[""]
    every = set().union(*commands.values())
    known = every | repository_flags() | OUTSIDE_FLAGS
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        name = path.relative_to(ROOT)
        lines, spans = code_of(path.read_text())
        for line in lines + spans:
            for part in re.split(r"\||&&|;|#", line):
                m = re.search(r"(?:^|\s|/)geocluster ([a-z][a-z-]*)(?=\s|$)(.*)", part)
                if not m:
                    continue
                command, rest = m.groups()
                if command not in commands:
                    found.append(f"{name}: `geocluster {command}` is no command")
                    continue
                for flag in re.findall(FLAG, rest):
                    if flag not in commands[command]:
                        found.append(f"{name}: `geocluster {command}` has no option --{flag} ({part.strip()[:80]})")
        for span in spans:
            m = re.fullmatch(r"--([a-z][a-z0-9-]*)(?:[ =].*)?", span.strip())
            if m and m.group(1) not in known:
                found.append(f"{name}: `{span}` is no option of geocluster, geocluster-serve or a script here")
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    found = check_module_map() + check_commands(sys.argv[1], sys.argv[2])
    for finding in found:
        print(finding)
    print(f"check_docs: module map and commands: {len(found)} finding(s)")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
