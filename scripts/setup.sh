#!/usr/bin/env bash
# Installs what geocluster needs to build, if it is missing: GEOS and PROJ (C libraries and
# headers) and pkg-config, from Debian's packages, and rsvg-convert (librsvg2-bin), with which
# the tests render every SVG map. As root it installs them with apt-get;
# otherwise it prints the exact command and fails.
set -euo pipefail

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if command -v pkg-config >/dev/null 2>&1; then
  pkg-config --exists geos || missing+=(libgeos-dev)
  pkg-config --exists proj || missing+=(libproj-dev)
else
  missing+=(libgeos-dev libproj-dev)
fi
command -v rsvg-convert >/dev/null 2>&1 || missing+=(librsvg2-bin)
command -v swift >/dev/null 2>&1 || {
  echo "setup: the Swift toolchain (6.1 or newer) is not on PATH; install it from swift.org first" >&2
  exit 1
}

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

cmd="apt-get update && apt-get install -y ${missing[*]}"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
  pkg-config --exists geos proj || { echo "setup: GEOS or PROJ still not found by pkg-config" >&2; exit 1; }
else
  echo "setup: missing ${missing[*]}; run as root:" >&2
  echo "  sudo sh -c '$cmd'" >&2
  exit 1
fi
