#!/usr/bin/env bash
# Installs bale from a build tree into a scratch prefix and builds consumers against it three ways:
# find_package, add_subdirectory, pkg-config.
set -euo pipefail
source_dir=$1
build_dir=$2
cxx=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null

cmake -S "$source_dir/tests/package/consumer" -B "$work/find" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/find" >/dev/null
"$work/find/consumer"

cmake -S "$source_dir/tests/package/consumer" -B "$work/sub" -DCMAKE_CXX_COMPILER="$cxx" \
  -DBALE_CONSUMER_MODE=add_subdirectory -DBALE_SOURCE_DIR="$source_dir" >/dev/null
cmake --build "$work/sub" >/dev/null
"$work/sub/consumer"
# A user of add_subdirectory must not get bale's tests or warnings.
if [ -d "$work/sub/bale/tests" ]; then echo "bale's tests leaked into a consumer build"; exit 1; fi

PKG_CONFIG_PATH="$work/prefix/share/pkgconfig" "$cxx" $(PKG_CONFIG_PATH="$work/prefix/share/pkgconfig" pkg-config --cflags bale) \
  "$source_dir/tests/package/consumer/main.cpp" -o "$work/pc_consumer"
"$work/pc_consumer"
echo "package ok"
