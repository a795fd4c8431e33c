#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# The main job: installs what is missing, builds the benchmarks in release mode, runs every case
# with the baselines interleaved in the same run, measures compile time against cereal and Boost, and
# prints the tables (also written to results/). Progress goes to stderr as it runs.
#   scripts/bench.sh                 quick run (a few minutes)
#   scripts/bench.sh --full          more repetitions, longer runs
#   scripts/bench.sh --filter REGEX  only the matching benchmarks, e.g. 'double_array|seed_struct';
#                                    'mpi', 'compile' and 'python' (whole words) pick those parts
#   scripts/bench.sh --tiny          every case at a tiny size (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."
export BALE_BENCH_MODE=quick
filter=""
while [ $# -gt 0 ]; do
  case "$1" in
    --full) BALE_BENCH_MODE=full ;;
    --tiny) BALE_BENCH_MODE=tiny ;;
    --filter) filter="$2"; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
scripts/install_deps.sh cmake ninja-build g++ libbenchmark-dev python3 python3-matplotlib \
  libboost-serialization-dev libcereal-dev libmsgpack-cxx-dev libprotobuf-dev protobuf-compiler \
  libflatbuffers-dev flatbuffers-compiler capnproto libcapnp-dev liblz4-dev libzstd-dev \
  nlohmann-json3-dev rapidjson-dev libsimdjson-dev coreutils libopenmpi-dev openmpi-bin libboost-mpi-dev \
  libeigen3-dev libhdf5-openmpi-dev pkg-config python3-dev pybind11-dev python3-numpy python3-h5py \
  python3-msgpack
mkdir -p results
cmake --preset bench >/dev/null
echo "building the benchmarks"
cmake --build --preset bench -j "$(nproc)" >results/build.log || { cat results/build.log; exit 1; }
# Repetitions and sizes come from BALE_BENCH_MODE; interleaving puts peers side by side in time.
args=(--benchmark_enable_random_interleaving=true
      --benchmark_out=results/bench.json --benchmark_out_format=json)
[ -n "$filter" ] && args+=(--benchmark_filter="$filter")
# A filter names whole parts too: "mpi" runs the MPI benchmark, not the compile one ("co-mpi-le").
part_matches() { [ -z "$filter" ] || [[ "$1" =~ ^($filter)$ ]]; }
suite_matches=1
if [ -n "$filter" ]; then
  build/bench/bench/bale_bench --benchmark_list_tests=true --benchmark_filter="$filter" \
    >results/matched.txt 2>/dev/null || true
  [ -s results/matched.txt ] || suite_matches=0
fi
if [ "$suite_matches" = 1 ]; then
  echo "running the benchmarks (tables in results/bench.log)"
  build/bench/bench/bale_bench "${args[@]}" >results/bench.log
else
  echo "no case of the suite matches '$filter'"
  printf '{"context": {}, "benchmarks": []}\n' >results/bench.json
  : >results/bench.log
fi
if part_matches compile; then
  declare -A compile_runs=([tiny]=1 [quick]=1 [full]=5)
  /usr/bin/python3 bench/compile/compile_bench.py results --runs "${compile_runs[$BALE_BENCH_MODE]}" >/dev/null
else
  rm -f results/compile.md
fi
if part_matches mpi; then
  echo "running the MPI benchmark (two ranks)"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpiexec -n 2 build/bench/bench/bale_mpi_bench results/mpi.md >/dev/null
  # Collective files under both of Open MPI's MPI-IO components.
  for io in ompio romio321; do
    echo "running the collective file benchmark (two ranks, $io)"
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_io=$io \
      mpiexec -n 2 build/bench/bench/bale_mpi_file_bench "results/mpi_file_$io.md" >/dev/null
  done
else
  rm -f results/mpi.md results/mpi_file_*.md
fi
if part_matches python; then
  # Arrays and record files large enough that opening them, not the call around it, is timed.
  declare -A python_doubles=([tiny]=4096 [quick]=134217728 [full]=134217728)
  declare -A python_particles=([tiny]=100 [quick]=1000000 [full]=1000000)
  declare -A python_rounds=([tiny]=1 [quick]=5 [full]=15)
  echo "running the Python benchmark"
  rm -rf results/python_inputs
  build/bench/bench/bale_python_inputs results/python_inputs "${python_doubles[$BALE_BENCH_MODE]}" \
    "${python_particles[$BALE_BENCH_MODE]}" >results/python_rates.json
  PYTHONPATH=build/bench/python/package /usr/bin/python3 bench/python/python_bench.py \
    results/python_inputs results/python.md results/python_rates.json \
    --rounds "${python_rounds[$BALE_BENCH_MODE]}" >/dev/null
  rm -rf results/python_inputs results/python_rates.json
else
  rm -f results/python.md
fi
# Debian's interpreter: it is the one that sees python3-matplotlib.
/usr/bin/python3 bench/report.py results/bench.json results
