#!/usr/bin/env bash
# The pins product's promise, checked rather than assumed: no source of its targets (Pins,
# ListingVocabulary, ClusterCore) imports Foundation, a C module of this package (CGeoLibraries, CSystemTuning)
# or any module outside an allow-list. Every `import` line of every Swift file is read
# (attributes such as @_spi, access levels and `import struct M.X` forms included, inside
# `#if` blocks too). Allowed: the product's own ClusterCore and ListingVocabulary and two modules every
# Swift platform ships with the standard library: Synchronization (Atomic) and Dispatch
# (ClusterCore's worker threads). Usage, from the checkout's root:
#   scripts/dev/check_imports.sh            check Sources/Pins, Sources/ListingVocabulary and Sources/ClusterCore
#   scripts/dev/check_imports.sh DIR...     check those folders
#   scripts/dev/check_imports.sh --self-test   plant `import Foundation` in a copy; the check must fail
#   EXTRA_ALLOWED=Pins scripts/dev/check_imports.sh Sources/PinsQueries   allow one more module
#     (PinsQueries, on Pins: the C library behind the Python package links it without Foundation)
#   ALLOWED='ArgumentParser|CommandLineSupport|Glibc|Darwin|Dispatch' scripts/dev/check_imports.sh Sources/geocluster
#     another allow-list altogether (the command line: its parser, the request layer, the system)
# Exit 0 clean, 1 a forbidden import (each listed with its file and line).
set -uo pipefail
base=${ALLOWED:-ClusterCore|ListingVocabulary|Synchronization|Dispatch}
allowed="^(${base}${EXTRA_ALLOWED:+|$EXTRA_ALLOWED})\$"
names="${base//|/, }${EXTRA_ALLOWED:+, $EXTRA_ALLOWED}"

check() {
    local bad=0 files=0 line file module
    while IFS= read -r file; do
        files=$((files + 1))
        while IFS= read -r line; do
            # "12:@_spi(Sorting) public import struct ClusterCore.RadixSort" -> "ClusterCore"
            module=$(printf '%s\n' "${line#*:}" | sed -E 's/^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]+((typealias|struct|class|enum|protocol|let|var|func)[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*).*/\7/')
            if ! [[ $module =~ $allowed ]]; then
                echo "$file:${line%%:*}: imports $module (allowed: $names)"
                bad=1
            fi
        done < <(grep -nE '^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]' "$file")
    done < <(find "$@" -name '*.swift' | sort)
    [ "$files" -gt 0 ] || { echo "imports: no Swift file under $*"; return 1; }
    [ $bad -eq 0 ] && echo "imports: $files files in $* import only $names"
    return $bad
}

if [ "${1:-}" = "--self-test" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    cp -R Sources/Pins "$tmp/Pins"
    printf 'import Foundation\n' > "$tmp/Pins/Planted.swift"
    if check "$tmp/Pins" >/dev/null; then
        echo "imports: self-test FAILED: a planted 'import Foundation' was not caught"; exit 1
    fi
    echo "imports: self-test passed (a planted 'import Foundation' is caught)"
    exit 0
fi
[ $# -gt 0 ] || set -- Sources/Pins Sources/ListingVocabulary Sources/ClusterCore
check "$@"
