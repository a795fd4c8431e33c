#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# The whole test suite twice: optimized with GCC and libstdc++, and with Clang and libc++ under
# AddressSanitizer + UndefinedBehaviorSanitizer (Clang compiles the sanitized build faster than
# GCC); then every fuzz target (Clang, both sanitizers) for a bounded time, from its corpus and its
# kept crashes. Installs what it needs from Debian first. The optimized Clang
# and libc++ build runs by hand: cmake --preset clang-libcxx, then build and ctest the same preset.
#   scripts/test.sh            everything
#   FUZZ_SECONDS=0 scripts/test.sh   skip the fuzzing step
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh cmake ninja-build g++ pkg-config libgtest-dev libgmock-dev googletest \
  clang libclang-rt-14-dev libc++-14-dev libc++abi-14-dev \
  liblz4-dev libzstd-dev libmsgpack-cxx-dev libboost-dev libopenmpi-dev openmpi-bin python3 \
  libeigen3-dev libxtensor-dev \
  python3-dev pybind11-dev python3-numpy python3-pytest python3-hypothesis python3-msgpack \
  python3-pip python3-setuptools

jobs=$(nproc)
for preset in dev asan-ubsan; do
  echo "== $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs"
done

if [ "${FUZZ_SECONDS:-10}" != "0" ]; then
  scripts/fuzz.sh "${FUZZ_SECONDS:-10}"
fi
