#!/usr/bin/env python3
"""The DocC article "Pins in a map app" shows the example Examples/MapApp word for word: every
```swift block of the article must occur, character for character, in one file of the
example (its Package.swift or a source). Fails, naming the block, when one has drifted.
Usage, from the checkout's root: scripts/dev/check_article_code.py [ARTICLE EXAMPLE_DIR]"""
import pathlib
import re
import sys

article = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Sources/Pins/Pins.docc/PinsInAMapApp.md")
example = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "Examples/MapApp")
files = {p: p.read_text() for p in sorted(example.rglob("*.swift")) if ".build" not in p.parts}
blocks = re.findall(r"^```swift\n(.*?)^```$", article.read_text(), flags=re.S | re.M)
if not blocks:
    sys.exit(f"article code: no swift block in {article}")
bad = 0
for n, block in enumerate(blocks, 1):
    text = block.rstrip("\n")
    if not any(text in source for source in files.values()):
        first = text.splitlines()[0] if text else ""
        print(f"article code: block {n} of {article} (starting {first!r}) is not in {example}'s sources word for word")
        bad += 1
if bad:
    sys.exit(1)
print(f"article code: all {len(blocks)} swift blocks of {article} are in {example} word for word")
