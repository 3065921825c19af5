#!/usr/bin/env bash
# `make consumer`: proves that an app can embed the pins product alone. Examples/MapApp is
# copied to a temporary folder with its dependency path pointed at this checkout, so it is a
# package of its own that depends on geocluster's GeoclusterPins product only, as an app would.
# Then:
#   1. the imports of every source of Pins, ListingVocabulary and ClusterCore (scripts/dev/check_imports.sh, and
#      its self-test: a planted `import Foundation` must be caught);
#   2. `swift build -v` of the example, timed; it must resolve no package (the example turns
#      the command line's trait off with `traits: []`); its log must show Pins, ListingVocabulary and ClusterCore compiled,
#      no C target compiled (no clang invocation at all, no CGeoLibraries or CSystemTuning), no
#      PROJ or GEOS header read, and none of the kit's other modules compiled;
#   3. the example run, its output checked: at every zoom the whole city's pins stand for every
#      listing (and the filtered pins for exactly the passing ones), the tapped cluster's paged
#      leaves and its children add up to its count, the tapped building's leaves to its count,
#      near-me finds listings, and the MapKit-shaped camera (MapKitAdapter.swift) asks for zoom
#      12 from a 390-point view of 99,840 map points, and zooming in keeps or replaces every
#      annotation.
# The build log and the output stay in .build/consumer/ for a look. Exit 0 all passed, 1 not.
set -uo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
root=$(pwd -P)
keep=.build/consumer
mkdir -p "$keep"
fail() { echo "consumer: FAILED: $*"; exit 1; }

scripts/dev/check_imports.sh || fail "a source of the pins product imports a module outside the allow-list"
scripts/dev/check_imports.sh --self-test || fail "the import check's self-test"
EXTRA_ALLOWED=Pins scripts/dev/check_imports.sh Sources/PinsQueries \
    || fail "PinsQueries imports a module beyond Pins (the C library behind the Python package links it without Foundation)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R Examples/MapApp "$tmp/MapApp"
rm -rf "$tmp/MapApp/.build"
sed -i.orig "s|path: \"../..\"|path: \"$root\"|" "$tmp/MapApp/Package.swift" && rm "$tmp/MapApp/Package.swift.orig"
grep -q "path: \"$root\"" "$tmp/MapApp/Package.swift" || fail "could not point the example's dependency at $root"

start=$(date +%s.%N)
(cd "$tmp/MapApp" && "$SWIFT" build -v) > "$keep/build.log" 2>&1 || { tail -30 "$keep/build.log"; fail "the example did not build (log: $keep/build.log)"; }
seconds=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
echo "consumer: the example built in $seconds s (swift build -v from an empty build folder; log: $keep/build.log)"

log="$keep/build.log"
# traits: [] turns the command line's trait off: no other package may be resolved.
if [ -s "$tmp/MapApp/Package.resolved" ]; then
    cat "$tmp/MapApp/Package.resolved"
    fail "the example resolved packages it does not use (Package.resolved above)"
fi
grep -q 'traits: \[\]' "$tmp/MapApp/Package.swift" || fail "the example no longer depends with traits: []"
for module in Pins ListingVocabulary ClusterCore MapApp; do
    grep -qE -- "-module-name $module( |$)" "$log" || fail "no compile of $module in the log"
done
for module in Geo CGeoLibraries CSystemTuning Datasets ClusterMetrics Harness Reports Requests PinsQueries ArgumentParser; do
    if grep -qE -- "-module-name $module( |$)" "$log"; then fail "$module was compiled"; fi
done
if grep -E '\.swift:[0-9]+:[0-9]+: warning: ' "$log" | grep -q .; then
    grep -E '\.swift:[0-9]+:[0-9]+: warning: ' "$log" | sort -u | head -10
    fail "compiler warnings in the example's build"
fi
# clang runs here only as the linker driver (manifests, the executable: `clang -pie … -o`); a C
# target's compile would be a clang line with -c or a C source.
clang_lines=$(grep -E '^[^ ]*clang(\+\+)?(-[0-9]+)? ' "$log")
compiles=$(printf '%s\n' "$clang_lines" | grep -E ' -c( |$)|\.(c|m|cc|cpp|mm)( |$)')
if [ -n "$compiles" ]; then
    printf '%s\n' "$compiles" | head -5 | cut -c1-300
    fail "clang compiled C"
fi
grep -nE 'CGeoLibraries|CSystemTuning|proj\.h|geos_c\.h' "$log" | head -5 | grep -q . && fail "the log names a C target or a PROJ/GEOS header"
echo "consumer: the log shows Pins, ListingVocabulary, ClusterCore and MapApp compiled ($(grep -cE -- '-module-name (Pins|ListingVocabulary|ClusterCore|MapApp)( |$)' "$log") swift compile lines), clang only as the linker ($(printf '%s\n' "$clang_lines" | grep -c .) link lines, 0 compiles), no CGeoLibraries/CSystemTuning, no proj.h/geos_c.h"

bin=$(cd "$tmp/MapApp" && "$SWIFT" build --show-bin-path)/MapApp
"$bin" > "$keep/output.txt" 2>&1 || { cat "$keep/output.txt"; fail "the example exited with an error"; }
out="$keep/output.txt"
awk '
    # key=value pairs of a line into the global array v
    function parse(line,   a, i, p) { delete v; split(line, a, " ")
        for (i in a) if (index(a[i], "=") > 0) { split(a[i], p, "="); v[p[1]] = p[2] } }
    function wrong() { print "consumer: wrong: " $0; bad = 1 }
    /^world zoom / { n++; parse($0)
        if (v["listings"] != v["expected"] || v["filtered"] != v["expectedFiltered"] || v["expected"] + 0 == 0 || v["expectedFiltered"] + 0 == 0) wrong() }
    /^tapped cluster / { c++; parse($0)
        if (v["count"] != v["leaves"] || v["count"] != v["childListings"] || v["count"] + 0 < 2 || v["expansionZoom"] == "none") wrong() }
    /^tapped building / { b++; parse($0); if (v["count"] != v["leaves"] || v["count"] + 0 < 2) wrong() }
    /^near me: / { m++; parse($0); if (v["total"] + 0 < 1 || v["shown"] + 0 < 1) wrong() }
    /^mapkit camera: / { k++; parse($0); if (v["zoom"] != "12.0" || v["annotations"] + 0 < 2 || v["listings"] + 0 < 2) wrong() }
    /^mapkit zoom in: / { z++; parse($0)
        if (v["zoom"] != "14.0" || v["kept"] + v["removed"] != v["before"] || v["kept"] + v["added"] != v["after"] || v["after"] + 0 < 1) wrong() }
    END { if (n < 6 || c != 1 || b != 1 || m != 1 || k != 1 || z != 1) { print "consumer: missing lines (world zooms " n ", clusters " c ", buildings " b ", near me " m ", mapkit " k + z ")"; bad = 1 }
          exit bad }' "$out" || { cat "$out"; fail "the example printed something the checks do not expect (output: $out)"; }
echo "consumer: the example's output checks passed ($(grep -c '^world zoom' "$out") zooms, a cluster, a building, near me; output: $out)"
