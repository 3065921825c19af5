#!/usr/bin/env bash
# Installs what geocluster needs to build, if it is missing: GEOS and PROJ (C libraries and
# headers), libdeflate (the server's gzip) and pkg-config, from Debian's packages. With --test, also what the tests use: the
# chromium browser (the HTML report is opened headless and screenshotted), a font for it to
# render text with (fonts-dejavu-core), rsvg-convert (librsvg2-bin, renders SVG figures), and
# valgrind and binutils' strip (the instruction and allocation counts of `geocluster check`).
# As root it installs them with apt-get; otherwise it prints the exact command, and fails when
# a build dependency is missing (the test tools only warn: without a browser the report test
# says so loudly and checks the page as XML instead).
set -euo pipefail

with_test_tools=false
[ "${1:-}" = "--test" ] && with_test_tools=true

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if command -v pkg-config >/dev/null 2>&1; then
  pkg-config --exists geos || missing+=(libgeos-dev)
  pkg-config --exists proj || missing+=(libproj-dev)
  pkg-config --exists libdeflate || missing+=(libdeflate-dev)
else
  missing+=(libgeos-dev libproj-dev libdeflate-dev)
fi
command -v swift >/dev/null 2>&1 || {
  echo "setup: the Swift toolchain (6.1 or newer) is not on PATH; install it from swift.org first" >&2
  exit 1
}

test_missing=()
if $with_test_tools; then
  command -v chromium >/dev/null 2>&1 || test_missing+=(chromium)
  [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || test_missing+=(fonts-dejavu-core)
  command -v rsvg-convert >/dev/null 2>&1 || test_missing+=(librsvg2-bin)
  command -v valgrind >/dev/null 2>&1 || test_missing+=(valgrind)
  command -v strip >/dev/null 2>&1 || test_missing+=(binutils)
fi

all=("${missing[@]}" "${test_missing[@]}")
if [ ${#all[@]} -eq 0 ]; then
  exit 0
fi

cmd="apt-get update && apt-get install -y ${all[*]}"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing ${all[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get install -y -qq "${missing[@]}" >/dev/null
    pkg-config --exists geos proj || { echo "setup: GEOS or PROJ still not found by pkg-config" >&2; exit 1; }
  fi
  # Separately, so a distribution without a `chromium` package (Ubuntu ships a snap stub)
  # still builds and tests; the report test then says loudly that it used no browser.
  if [ ${#test_missing[@]} -gt 0 ]; then
    apt-get install -y -qq --no-install-recommends "${test_missing[@]}" >/dev/null \
      || echo "setup: WARNING: could not install ${test_missing[*]}; the HTML report test will not use a browser" >&2
  fi
elif [ ${#missing[@]} -gt 0 ]; then
  echo "setup: missing ${all[*]}; run as root:" >&2
  echo "  sudo sh -c '$cmd'" >&2
  exit 1
else
  echo "setup: WARNING: missing test tools ${test_missing[*]}; the HTML report test will not use a browser. Run as root:" >&2
  echo "  sudo sh -c '$cmd'" >&2
fi
