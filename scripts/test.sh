#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# The whole test suite three times: optimized with GCC and libstdc++, optimized with Clang and
# libc++, and under AddressSanitizer + UndefinedBehaviorSanitizer; then every fuzz target for a
# bounded time. Installs what it needs from Debian first.
#   scripts/test.sh            everything
#   FUZZ_SECONDS=0 scripts/test.sh   skip the fuzzing step
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh cmake ninja-build g++ pkg-config libgtest-dev libgmock-dev googletest \
  clang libclang-rt-14-dev libc++-14-dev libc++abi-14-dev \
  liblz4-dev libzstd-dev libmsgpack-cxx-dev libboost-dev libopenmpi-dev openmpi-bin python3 \
  libeigen3-dev libxtensor-dev

jobs=$(nproc)
for preset in dev clang-libcxx asan-ubsan; do
  echo "== $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs"
done

if [ "${FUZZ_SECONDS:-20}" != "0" ]; then
  scripts/fuzz.sh "${FUZZ_SECONDS:-20}"
fi
