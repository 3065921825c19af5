#!/usr/bin/env python3
"""Every public declaration of the pins product (Sources/Pins, Sources/ListingVocabulary, Sources/ClusterCore) and every
case of a public enum has a doc comment (`///` directly above it, attributes aside), except
the members a protocol documents: description, debugDescription, customMirror, ==, <,
hash(into:), rawValue and init(rawValue:), init(arrayLiteral:). DocC's own warnings
(`make docs`) catch wrong parameter lists; this catches a missing comment.
Usage, from the checkout's root: scripts/dev/check_public_docs.py [DIR...]"""
import pathlib
import re
import sys

dirs = sys.argv[1:] or ["Sources/Pins", "Sources/ListingVocabulary", "Sources/ClusterCore"]
protocol_members = re.compile(
    r"\b(var description|var debugDescription|var customMirror|static func ==|static func <|func hash\(into"
    r"|let rawValue|init\(rawValue|init\(arrayLiteral)")
decl = re.compile(r"^\s*(@[\w()]+\s+)*(public|open)\s")
missing = []
for d in dirs:
    for path in sorted(pathlib.Path(d).rglob("*.swift")):
        lines = path.read_text().splitlines()
        enum_public_depth = []  # indentation of public enums whose cases need docs
        for i, line in enumerate(lines):
            stripped = line.strip()
            is_decl = bool(decl.match(line)) and not stripped.startswith("public import")
            indent = len(line) - len(line.lstrip())
            if is_decl and re.search(r"\benum\b", stripped.split("{")[0]):
                enum_public_depth.append(indent)
            is_case = (stripped.startswith("case ") and enum_public_depth and indent > enum_public_depth[-1]
                       and not stripped.endswith(":") and " return " not in stripped)
            if enum_public_depth and stripped == "}" and indent == enum_public_depth[-1]:
                enum_public_depth.pop()
            if not (is_decl or is_case) or protocol_members.search(stripped):
                continue
            j = i - 1
            while j >= 0 and re.match(r"^\s*(@[\w()]+\s*)+$", lines[j]):
                j -= 1
            if j < 0 or not lines[j].strip().startswith("///"):
                missing.append(f"{path}:{i + 1}: {stripped[:110]}")
for m in missing:
    print(m)
if missing:
    sys.exit(f"public docs: {len(missing)} public declaration(s) without a doc comment")
print(f"public docs: every public declaration and public enum case in {', '.join(dirs)} has a doc comment")
