#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Runs every libFuzzer target for a bounded time from a copy of its seed corpus and kept crashes.
# A crash fails the run and is left in fuzz/crashes/<target>/; keep it as a regression by moving
# it to fuzz/regressions/<target>/: fuzzing starts from it, and the replay tests
# (BALE_FUZZ_REPLAYS) run it.
#   scripts/fuzz.sh [seconds per target, default 20]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
scripts/install_deps.sh cmake ninja-build clang libclang-rt-14-dev libeigen3-dev
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)"
status=0
targets="deserialize try_deserialize roundtrip reader json msgpack compact decompress file schema graph"
[ -x build/fuzz/fuzz/fuzz_mpi_message ] && targets="$targets mpi_message"
[ -x build/fuzz/fuzz/fuzz_arrays ] && targets="$targets arrays"
for target in $targets; do
  work=$(mktemp -d)
  cp -r "fuzz/corpus/$target/." "$work/" 2>/dev/null || true
  cp -r "fuzz/regressions/$target/." "$work/" 2>/dev/null || true
  mkdir -p "fuzz/crashes/$target"
  echo "== fuzz $target for ${seconds}s"
  if ! "build/fuzz/fuzz/fuzz_$target" "$work" -max_total_time="$seconds" -max_len=4096 \
      -rss_limit_mb=2048 -timeout=10 -artifact_prefix="fuzz/crashes/$target/" -print_final_stats=1 2>"$work.log"; then
    tail -n 40 "$work.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work.log" || true
  fi
  rm -rf "$work" "$work.log"
done
exit $status
