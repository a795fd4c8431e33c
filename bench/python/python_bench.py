# SPDX-License-Identifier: BSL-1.0
"""The Python reader against NumPy, h5py and msgpack on the same numbers, in one run.

    python_bench.py INPUTS OUT.md CPP_RATES_JSON [--rounds N]

INPUTS is the directory bale_python_inputs wrote (bench/python/write_inputs.cpp); the .npy and
HDF5 files of the same numbers are written here, from the arrays bale reads. Every time is the
median of N rounds, the files in the page cache; RSS is what the process holds more after the
call, with the result alive and untouched.
"""

import gc
import json
import os
import pathlib
import statistics
import sys
import time

import h5py
import msgpack
import numpy

import bale


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure(call, rounds):
    """(median seconds, RSS bytes the result holds) of call()."""
    times, held = [], []
    for _ in range(rounds):
        gc.collect()
        before = rss()
        start = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - start)
        held.append(rss() - before)
        del result
    return statistics.median(times), statistics.median(held)


def ms(seconds):
    return f"{seconds * 1e3:.3f}"


def mb(nbytes):
    return f"{max(nbytes, 0) / 2**20:.1f}"


def write_peers(inputs):
    reals = bale.load(inputs / "reals.bale")
    matrix = bale.load(inputs / "matrix.bale")
    particles = bale.records(inputs / "particles.bales").as_array()
    numpy.save(inputs / "reals.npy", reals)
    numpy.save(inputs / "matrix.npy", matrix)
    packed = numpy.empty(len(particles), dtype=[(n, particles.dtype.fields[n][0])
                                                 for n in particles.dtype.names])
    for n in particles.dtype.names:
        packed[n] = particles[n]
    with h5py.File(inputs / "peers.h5", "w") as f:
        f["reals"] = reals
        f["matrix"] = matrix
        f["particles"] = packed


def array_rows(inputs, rounds):
    rows = []
    for name in ("reals", "matrix"):
        bale_file = inputs / f"{name}.bale"
        size = bale_file.stat().st_size
        cases = [
            ("bale.load, checksum unchecked", lambda: bale.load(bale_file, verify_checksum=False)),
            ("bale.load, checksum checked", lambda: bale.load(bale_file)),
            ('numpy.load(mmap_mode="r")', lambda: numpy.load(inputs / f"{name}.npy", mmap_mode="r")),
            ("h5py lazy dataset", lambda: h5py.File(inputs / "peers.h5", "r")[name]),
        ]
        results = [(label, *measure(call, rounds)) for label, call in cases]
        base = results[2][1]
        for label, seconds, held in results:
            rows.append((f"{name} ({size / 2**20:.0f} MiB)", label, ms(seconds), mb(held),
                         f"{seconds / base:.2f}"))
    return rows


def record_rows(inputs, rounds, cpp_rate):
    rows = []
    count = len(bale.records(inputs / "particles.bales"))
    h5_read = lambda: h5py.File(inputs / "peers.h5", "r")["particles"][...]  # noqa: E731
    h5_seconds, h5_held = measure(h5_read, rounds)
    cases = [
        ("record file: Records.as_array()", inputs / "particles.bales", True),
        ("record file: as_array(verify_checksum=False)", inputs / "particles.bales", False),
        ("2-rank collective file: as_array()", inputs / "collective.bales", True),
    ]
    rows.append((f"{count} particles", "h5py compound dataset [...]", ms(h5_seconds),
                 mb(h5_held), "1.00", f"{count / h5_seconds / 1e6:.1f}"))
    for label, path, verify in cases:
        seconds, held = measure(lambda: bale.records(path).as_array(verify_checksum=verify), rounds)
        rows.append((f"{count} particles", label, ms(seconds), mb(held),
                     f"{seconds / h5_seconds:.2f}", f"{count / seconds / 1e6:.1f}"))
    rows.append((f"{count} particles", "C++ record_reader<particle>, one at a time",
                 ms(count / cpp_rate), "", f"{count / cpp_rate / h5_seconds:.2f}",
                 f"{cpp_rate / 1e6:.1f}"))
    return rows


def object_rows(inputs, rounds):
    rows = []
    for name, label in (("monsters", "50 monsters (case 13)"), ("seed", "seed struct (case 5)")):
        binary = (inputs / f"{name}.bin").read_bytes()
        packed = (inputs / f"{name}.msgpack").read_bytes()
        schema = (inputs / f"{name}.schema").read_text()
        reps = max(1, 2000 // max(1, len(binary) // 1000))
        ours = measure(lambda: [bale.decode(binary, schema) for _ in range(reps)], rounds)[0] / reps
        theirs = measure(lambda: [msgpack.unpackb(packed) for _ in range(reps)], rounds)[0] / reps
        rows.append((label, "msgpack.unpackb (MessagePack)", f"{theirs * 1e6:.1f}", "1.00"))
        rows.append((label, "bale.decode (binary, by schema)", f"{ours * 1e6:.1f}",
                     f"{ours / theirs:.2f}"))
    return rows


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def main():
    inputs, out, cpp_json = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 5
    cpp_rate = json.loads(pathlib.Path(cpp_json).read_text())["cpp_record_reader_per_second"]
    write_peers(inputs)
    parts = [
        "# The Python reader\n",
        "Arrays: the call that gives a NumPy array of the file's numbers (ratio: to numpy.load).\n",
        table(["file", "call", "ms", "RSS MB", "ratio"], array_rows(inputs, rounds)),
        "\nRecords to one structured array (ratio: to h5py).\n",
        table(["data", "call", "ms", "RSS MB", "ratio", "M records/s"],
              record_rows(inputs, rounds, cpp_rate)),
        "\nMessages to Python objects (ratio: to msgpack.unpackb).\n",
        table(["message", "call", "µs", "ratio"], object_rows(inputs, rounds)),
    ]
    out.write_text("\n".join(parts) + "\n")
    print(out.read_text())


if __name__ == "__main__":
    main()
