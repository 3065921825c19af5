#!/usr/bin/env bash
# `make docs`: the DocC documentation of the pins product's modules, Pins, ListingVocabulary and
# ClusterCore (catalogs Sources/Pins/Pins.docc, Sources/ListingVocabulary/ListingVocabulary.docc
# and Sources/ClusterCore/ClusterCore.docc: symbol
# documentation, the articles "Pins in a map app" and "Clustering with HDBSCAN"), built with
# swift-docc-plugin. Every public declaration must have a doc comment
# (scripts/dev/check_public_docs.py). Any line of docc's output that is a warning fails the target, as does a
# block of the map-app article that is not word for word in Examples/MapApp
# (scripts/dev/check_article_code.py). Archives: .build/plugins/Swift-DocC/outputs/; the full
# output: .build/docs.log. Exit 0 built without a warning, 1 not.
set -uo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
log=.build/docs.log
mkdir -p .build
scripts/dev/check_article_code.py || exit 1
scripts/dev/check_public_docs.py || exit 1
start=$(date +%s)
if ! "$SWIFT" package generate-documentation --target ClusterCore --target ListingVocabulary --target Pins > "$log" 2>&1; then
    tail -30 "$log"
    echo "docs: the documentation build failed after $(( $(date +%s) - start )) s (log: $log)"
    exit 1
fi
warnings=$(grep -ciE '(^|[^a-z])warning:' "$log")
if [ "$warnings" -gt 0 ]; then
    grep -iE '(^|[^a-z])warning:' "$log" | head -40
    echo "docs: $warnings warning line(s) in docc's output (log: $log); fix them at their source"
    exit 1
fi
echo "docs: Pins, ListingVocabulary and ClusterCore documented in $(( $(date +%s) - start )) s, 0 warnings ($(grep -oE 'Generated [0-9]+ documentation archives?' "$log" | grep -oE '[0-9]+') archives in .build/plugins/Swift-DocC/outputs; log: $log)"
