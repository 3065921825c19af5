#!/usr/bin/env bash
# Regenerates Tests/PinsServerTests/VectorTile/vector_tile.pb.swift from vector_tile.proto (the
# tests decode the server's tiles with it): protoc
# from PyPI's grpcio-tools (in a throw-away venv) and protoc-gen-swift built from the machine's
# copy of swift-protobuf at the version Package.swift resolves. Run by hand after editing the
# .proto; the generated file is committed, so builds need neither tool.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${TMPDIR:-/tmp}/geocluster-protoc
version=${SWIFT_PROTOBUF_VERSION:-1.39.0}
mkdir -p "$work"
if [ ! -x "$work/venv/bin/python" ]; then
  python3 -m venv "$work/venv"
  "$work/venv/bin/pip" install -q grpcio-tools
fi
if [ ! -x "$work/swift-protobuf/.build/release/protoc-gen-swift" ]; then
  rm -rf "$work/swift-protobuf"
  git clone -q https://github.com/apple/swift-protobuf "$work/swift-protobuf"
  git -C "$work/swift-protobuf" checkout -q "$version"
  (cd "$work/swift-protobuf" && swift build -c release --product protoc-gen-swift)
fi
dir=Tests/PinsServerTests/VectorTile
"$work/venv/bin/python" -m grpc_tools.protoc --plugin="$work/swift-protobuf/.build/release/protoc-gen-swift" \
  --swift_out="$dir" --swift_opt=Visibility=Internal -I "$dir" "$dir/vector_tile.proto"
echo "wrote $dir/vector_tile.pb.swift"
