#!/usr/bin/env bash
# What `geocluster serve`'s map page and its tests need, installed if missing:
# - MapLibre GL JS (BSD-3-Clause), from PyPI's `maplibre` package at a pinned version whose
#   wheel's sha256 is checked, its maplibre-gl.js and maplibre-gl.css copied into
#   .build/maplibre/ (the server's default --maplibre folder); no network at run time.
# - wrk (Debian's package), for `make serve-bench`, with --bench.
set -euo pipefail
cd "$(dirname "$0")/../.."
version=0.3.6
sha256=eeafab617d4a1b71c0c174c71405f67c4b4e494fe1b27968d4d2359bc160e277
dest=.build/maplibre
if [ ! -s "$dest/maplibre-gl.js" ] || [ "$(cat "$dest/VERSION" 2>/dev/null)" != "$version" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  echo "maplibre==$version --hash=sha256:$sha256" > "$work/requirements.txt"
  python3 -m pip download -q --no-deps --require-hashes -r "$work/requirements.txt" -d "$work"
  python3 - "$work"/maplibre-"$version"-py3-none-any.whl "$dest" <<'PY'
import sys, zipfile, pathlib
wheel, dest = sys.argv[1], pathlib.Path(sys.argv[2])
dest.mkdir(parents=True, exist_ok=True)
with zipfile.ZipFile(wheel) as z:
    for name in ("maplibre-gl.js", "maplibre-gl.css"):
        (dest / name).write_bytes(z.read("maplibre/srcjs/" + name))
PY
  echo "$version" > "$dest/VERSION"
  echo "setup-serve: MapLibre GL JS from maplibre==$version in $dest" >&2
fi
if [ "${1:-}" = "--bench" ] && ! command -v wrk >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
  else
    echo "setup-serve: wrk is missing; run as root: apt-get install -y wrk" >&2
    exit 1
  fi
fi
