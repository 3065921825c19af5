#!/usr/bin/env bash
# Fails when a build log holds a compiler warning from this repository's own code: a
# `path:line:column: warning:` line whose file is under Sources/, Tests/ or Benchmarks/ (or
# is a Package.swift). Warnings from dependencies' checkouts (in a build folder) and from the
# toolchain's libraries (linker warnings) are not ours and are left out. Prints each of ours
# once, with its file and line. Usage, from the checkout's root (as make runs it):
# scripts/dev/warnings.sh LOG... (the logs of builds from scratch: an incremental build prints
# the warnings of the files it recompiled only). Exit 0 none, 1 some, 2 a log missing.
set -uo pipefail
[ $# -gt 0 ] || { echo "usage: $0 LOG..." >&2; exit 2; }
for log in "$@"; do
    [ -f "$log" ] || { echo "warnings: no log $log" >&2; exit 2; }
done
# Paths made relative to this checkout (as given and with symbolic links resolved), then only
# this repository's own folders; a build folder under Benchmarks/ holds dependencies.
ours=$(grep -hE '^[^ ]+\.swift:[0-9]+:[0-9]+: warning: ' "$@" \
    | awk -v a="$(pwd)/" -v b="$(pwd -P)/" '{ if (index($0, a) == 1) $0 = substr($0, length(a) + 1);
                                            else if (index($0, b) == 1) $0 = substr($0, length(b) + 1); print }' \
    | grep -E '^(Sources|Tests|Benchmarks)/|^(Benchmarks/)?Package\.swift:' \
    | grep -vE '^Benchmarks/\.build' | sort -u)
if [ -n "$ours" ]; then
    echo "$ours"
    echo "warnings: $(printf '%s\n' "$ours" | wc -l) compiler warning(s) in this repository's code (fix them at their cause)"
    exit 1
fi
echo "warnings: none in this repository's code ($*)"
