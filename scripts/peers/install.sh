#!/bin/sh
# Install the peer libraries for run_peers.py and peer_cell.py into the current Python
# environment, in the order they need. Safe to run again: pip skips what is installed.
#   sh scripts/peers/install.sh            (uses python3; PYTHON=python3.11 to choose)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-python3}
supercluster=$(sed -n 's/^# *\(pysupercluster-problematy==[^ ]*\)$/\1/p' "$here/requirements.txt")

run() { echo "+ $*"; "$@"; }
run "$python" -m pip install -r "$here/requirements.txt"
# pysupercluster's setup.py imports numpy to find its headers, so it is built without
# build isolation, against the numpy just installed, and needs wheel present.
run "$python" -m pip install wheel
run "$python" -m pip install --no-build-isolation "$supercluster"
echo "installed; check with: $python -c 'import sklearn, hdbscan, fast_hdbscan, hdbscan_rs, pysupercluster'"
