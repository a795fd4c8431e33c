#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Turns the suite's Google Benchmark JSON into bale's report.

For every case: a table of median wall time over repetitions, the spread (min..max), CPU time,
throughput, encoded size, the ratio to bale (time / bale's time: above 1 is slower than bale) and,
where the case has one, the ratio to the memcpy baseline (baseline's time / this time: 1.0 is as
fast as memcpy). Also the per-type table of seed 001, bar charts (PNG, matplotlib) and every figure
as CSV and JSON.

Usage: report.py results/bench.json results/ [--title TEXT]
Benchmark names are "<case>/<library>/<operation>".
"""
import argparse
import csv
import json
import pathlib
import platform
import statistics
import subprocess
import sys

CASES = {
    "double_array": "1. std::vector<double>, 10^7 elements, in memory and to a file",
    "double_blocks": "2. 1000 arrays of double[10000] to a file and back",
    "tuple_roundtrip": "4. 500,000 round trips of tuple<int, uint64_t, vector<uint8_t>, string>",
    "seed_struct": "5. 100,000 x struct { float vec[4]; int i; float f; }, in memory and from a cold file",
    "seed_struct_constant": "5b. The same struct, every element equal",
    "seed_struct_small": "5c. The same struct, vec left at its default, i geometric, f a binomial count of halves",
    "int_decoders_small": "7a. Compact integer-array decoders: 10^6 int32 in [-60, 60]",
    "int_decoders_geometric": "7b. Compact integer-array decoders: 10^6 int32, geometric magnitudes (mean 50)",
    "int_decoders_full": "7c. Compact integer-array decoders: 10^6 int32, full range",
    "hps_double_array": "6a. HPS double array (10^6 doubles)",
    "hps_sparse_matrix": "6b. HPS sparse matrix (1000 rows x 100 int64 columns + doubles)",
    "hps_hash_map": "6c. HPS hash map string -> double (100,000 entries)",
    "json_hash_map": "8a. JSON: the HPS hash map (100,000 string -> double)",
    "json_seed_struct": "8b. JSON: 100,000 x struct { float vec[4]; int i; float f; }",
    "json_document": "8c. JSON: a nested document (company / departments / staff, about 10 MB)",
    "base64_1MB": "9a. base64 of 1 MB",
    "base64_8MB": "9b. base64 of 8 MB",
    "base64_64MB": "9c. base64 of 64 MB",
    "scene_graph": "10. A scene graph: 10^6 nodes, shared materials and instanced leaves, polymorphic shapes",
    "seed_evolution": "11a. The seed struct written by an older layout: read with its own schema, and resolved into one that added two members and removed one",
    "records_evolution": "11b. 100,000 small records (a name, a short path of structs, an enum, flags) written by an older layout, read both ways",
    "small_records": "12. 100,000 small records (a name, a short path of structs, an enum, flags, an optional), written into a kept buffer and read into a kept vector, beside code written by hand for the same bytes",
    "monsters": "13. 50 monsters (a position, mana, hp, a name, an inventory of bytes, a colour, weapons {name, damage}, the weapon equipped, a path of points): the public benchmarks' shape, beside code written by hand for bale binary's bytes with the same checks",
    "matrix": "14a. A 4096 x 4096 Eigen matrix of doubles (column-major, 128 MiB), in memory and to a file",
    "tensor": "14b. A 256^3 boost::multi_array of floats (64 MiB), in memory and to a file",
}
JSON_CASES = [("json_hash_map", "HPS hash map"), ("json_seed_struct", "100,000 seed structs"),
              ("json_document", "nested document")]
JSON_PEERS = ["simdjson_ondemand", "rapidjson", "nlohmann"]
BASE64_CASES = [("base64_1MB", "1 MB"), ("base64_8MB", "8 MB"), ("base64_64MB", "64 MB")]
PER_TYPE = ["char", "short", "int", "long", "float", "double"]
# The baseline each operation is compared with, where the case has one.
BASELINE = {op: "memcpy" for op in ("write", "read", "write_reused", "read_reused", "write_file", "read_file_cold")}
# A row this much slower than the same row of the published run is flagged.
SLOWER_THAN_PUBLISHED = 1.10


def baseline(case, operation):
    """A JSON read's floor is building the structs by copying the value; small records' is code
    written by hand for them; every other floor is memcpy."""
    if case in ("small_records", "monsters"):
        return "handwritten"
    return "value_copy" if case.startswith("json_") and operation == "read" else BASELINE.get(operation, "")


def load_runs(path):
    data = json.loads(pathlib.Path(path).read_text())
    runs = {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        name = b.get("run_name", b["name"]).split("/repeats:")[0].split("/real_time")[0]
        r = runs.setdefault(name, {"real": [], "cpu": [], "bps": [], "size": None, "error": None,
                                   "unit": b.get("time_unit", "ms")})
        if b.get("error_occurred"):
            r["error"] = b.get("error_message", "error")
            continue
        r["real"].append(b["real_time"])
        r["cpu"].append(b["cpu_time"])
        if b.get("bytes_per_second"):
            r["bps"].append(b["bytes_per_second"])
        if "encoded_bytes" in b:
            r["size"] = int(b["encoded_bytes"])
    return data.get("context", {}), runs


def summarize(runs):
    rows = []
    merged = {}
    for name, r in runs.items():
        key = "/".join(name.split("/")[:3])
        m = merged.setdefault(key, {"real": [], "cpu": [], "bps": [], "size": None, "error": None, "unit": r["unit"]})
        for field in ("real", "cpu", "bps"):
            m[field] += r[field]
        m["size"] = r["size"] if r["size"] is not None else m["size"]
        m["error"] = r["error"] or m["error"]
    for name, r in merged.items():
        parts = name.split("/")
        if len(parts) < 3:
            continue
        case, library, op = parts[:3]  # later parts are Google Benchmark's (min_time:..., iterations:...)
        row = {"case": case, "library": library, "operation": op, "unit": r["unit"], "error": r["error"],
               "reps": len(r["real"]), "size": r["size"]}
        if r["real"]:
            row.update(median=statistics.median(r["real"]), min=min(r["real"]), max=max(r["real"]),
                       cpu=statistics.median(r["cpu"]),
                       gbps=statistics.median(r["bps"]) / 1e9 if r["bps"] else None)
        rows.append(row)
    index = {(r["case"], r["library"], r["operation"]): r for r in rows}
    for r in rows:
        if "median" not in r:
            continue
        bale = index.get((r["case"], "bale", r["operation"]))
        if bale and "median" in bale:
            r["vs_bale"] = r["median"] / bale["median"]
        base = index.get((r["case"], baseline(r["case"], r["operation"]), r["operation"]))
        if base and "median" in base:
            r["vs_memcpy"] = base["median"] / r["median"]
    return rows


def machine_line(context):
    cpu = "unknown CPU"
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        compiler = subprocess.run(["c++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        compiler = "unknown compiler"
    return (f"{context.get('num_cpus', '?')} x {cpu}, {platform.system()} {platform.release()}; "
            f"{compiler}; flags -O3 -DNDEBUG (CMake Release); run {context.get('date', '?')}")


def fmt(value, digits=3):
    """digits decimals; below 1, digits significant figures (microsecond rows in a table in ms)."""
    if value is None:
        return ""
    if 0 < abs(value) < 1:
        return f"{value:#.{digits}g}"
    return f"{value:,.{digits}f}"


def case_table(rows, case):
    out = ["| library | operation | median | spread | CPU | GB/s | bytes | vs bale | vs memcpy |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    order = {"write": 0, "read": 1, "read_twice": 2, "write_reused": 3, "read_reused": 4, "write_file": 5,
             "read_file_cold": 6, "roundtrip": 7, "copy": 8, "encode": 0, "decode": 1}
    for r in sorted((r for r in rows if r["case"] == case),
                    key=lambda r: (order.get(r["operation"], 9), r.get("median") or 1e300)):
        if r["error"]:
            out.append(f"| {r['library']} | {r['operation']} | FAILED: {r['error']} | | | | | | |")
            continue
        unit = r["unit"]
        name = f"**{r['library']}**" if r["library"].startswith("bale") else r["library"]
        size = "" if r["size"] is None else f"{r['size']:,}"
        out.append(f"| {name} | {r['operation']} | {fmt(r['median'])} {unit} | {fmt(r['min'])}..{fmt(r['max'])} | "
                   f"{fmt(r['cpu'])} | {fmt(r.get('gbps'), 2)} | {size} | {fmt(r.get('vs_bale'), 2)} | "
                   f"{fmt(r.get('vs_memcpy'), 2)} |")
    return out


SEED_DISTRIBUTIONS = [("seed_struct", "uniform"), ("seed_struct_constant", "constant"), ("seed_struct_small", "small")]
SEED_VARIANTS = [("vector_copy", "copy", "memcpy in memory (vector copy)"),
                 ("memcpy", "read_file_cold", "memcpy, cold file"),
                 ("memcpy_lz4", "read_file_cold", "memcpy + LZ4, cold file"),
                 ("bale", "read", "bale binary in memory"),
                 ("bale", "read_file_cold", "bale binary, cold file"),
                 ("bale_unverified", "read_file_cold", "bale binary, cold file, checksum not verified"),
                 ("bale_lz4", "read_file_cold", "bale + LZ4, cold file"),
                 ("bale_zstd", "read_file_cold", "bale + zstd, cold file"),
                 ("bale_compact", "read_file_cold", "bale compact, cold file"),
                 ("bale_compact_typed", "read_file_cold", "bale compact + small_float + omit_defaults, cold file")]


def seed_table(rows):
    """Seed 003's table: every way of loading the 100,000 structs, for each data distribution."""
    index = {(r["case"], r["library"], r["operation"]): r for r in rows if not r["error"]}
    if not any(key[0] == "seed_struct_small" for key in index):
        return []
    head = "| variant | " + " | ".join(f"{name}: time | CPU | bytes" for _, name in SEED_DISTRIBUTIONS) + " |"
    out = [head, "|---|" + "---:|---:|---:|" * len(SEED_DISTRIBUTIONS)]
    for library, operation, label in SEED_VARIANTS:
        cells = []
        for case, _ in SEED_DISTRIBUTIONS:
            r = index.get((case, library, operation))
            if r is None:
                cells += ["", "", ""]
                continue
            size = "" if r["size"] is None else f"{r['size']:,}"
            cells += [f"{fmt(r['median'])} {r['unit']}", f"{fmt(r['cpu'])}", size]
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return out


def mb_per_s(r):
    return None if r is None or r["error"] or not r.get("gbps") else r["gbps"] * 1000


def json_table(rows):
    """Case 8 in one table: MB/s of JSON text, and how many times faster bale is than each peer."""
    index = {(r["case"], r["library"], r["operation"]): r for r in rows}
    if not any(key[0].startswith("json_") for key in index):
        return []
    out = ["| case | operation | floor MB/s | bale MB/s | " + " | ".join(f"{p} MB/s" for p in JSON_PEERS) +
           " | bale vs floor | " + " | ".join(f"bale vs {p}" for p in JSON_PEERS) + " |",
           "|---|---|" + "---:|" * (3 + 2 * len(JSON_PEERS))]
    for case, label in JSON_CASES:
        for op in ("read", "write"):
            bale = index.get((case, "bale", op))
            floor = index.get((case, baseline(case, op), op))
            cells = [fmt(mb_per_s(floor), 0), fmt(mb_per_s(bale), 0)]
            ratios = []
            for peer in JSON_PEERS:
                r = index.get((case, peer, op))
                cells.append("failed" if r and r["error"] else fmt(mb_per_s(r), 0) if r else "n/a")
                ok = bale and r and "median" in bale and "median" in r
                ratios.append(f"{r['median'] / bale['median']:.1f}x" if ok else "")
            floor_ratio = fmt(bale.get("vs_memcpy"), 2) if bale else ""
            out.append(f"| {label} | {op} | " + " | ".join(cells + [floor_ratio] + ratios) + " |")
    tight = index.get(("json_hash_map", "convert_insert", "read"))
    bale = index.get(("json_hash_map", "bale", "read"))
    if tight and bale and "median" in tight and "median" in bale:
        line = (f"The hash-map read's tighter floor (convert_insert: each number converted by "
                f"std::from_chars and each pair emplaced into the reserved map in bucket order, with "
                f"locating and ordering left out of the timing) took {fmt(tight['median'])} {tight['unit']}, "
                f"bale {fmt(bale['median'])} {bale['unit']} (bale vs this floor: "
                f"{tight['median'] / bale['median']:.2f})")
        for peer in ("rapidjson", "nlohmann"):
            r = index.get(("json_hash_map", peer, "read"))
            if r and "median" in r:
                line += f"; {peer} is {r['median'] / tight['median']:.2f}x this floor"
        out += ["", line + "."]
    return out


def base64_table(rows):
    """Case 9 in one table: MB/s of raw bytes. coreutils' codec alone is estimated as its process time
    less its start-up time (the same command on an empty file)."""
    index = {(r["case"], r["library"], r["operation"]): r for r in rows if not r["error"] and "median" in r}
    if not any(key[0].startswith("base64_") for key in index):
        return []
    out = ["| size | operation | bale MB/s | bale AVX2 MB/s | bale portable MB/s | coreutils codec MB/s (est.) | "
           "bale vs coreutils codec | AVX2 vs coreutils codec | portable vs coreutils codec | bale process | "
           "coreutils process | process ratio |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for case, label in BASE64_CASES:
        for op in ("encode", "decode"):
            bale, portable = index.get((case, "bale", op)), index.get((case, "bale_portable", op))
            avx2 = index.get((case, "bale_avx2", op))
            core, start = index.get((case, "coreutils", op)), index.get((case, "coreutils_startup", op))
            process = index.get((case, "bale_process", op))
            codec_ms = core["median"] - start["median"] if core and start else None
            raw_mb = bale["gbps"] * bale["median"] if bale and bale.get("gbps") else None  # GB/s x ms = MB
            core_mbps = raw_mb / codec_ms * 1000 if raw_mb and codec_ms and codec_ms > 0 else None
            ratio = lambda r: f"{codec_ms / r['median']:.1f}x" if r and codec_ms and codec_ms > 0 else ""
            proc = (f"{fmt(process['median'])} ms", f"{fmt(core['median'])} ms",
                    f"{core['median'] / process['median']:.1f}x") if process and core else ("", "", "")
            out.append(f"| {label} | {op} | {fmt(mb_per_s(bale), 0)} | {fmt(mb_per_s(avx2), 0)} | "
                       f"{fmt(mb_per_s(portable), 0)} | {fmt(core_mbps, 0)} | {ratio(bale)} | {ratio(avx2)} | "
                       f"{ratio(portable)} | " + " | ".join(proc) + " |")
    return out


def per_type_table(rows):
    libraries = sorted({r["library"] for r in rows if r["case"].startswith("per_type_")},
                       key=lambda name: (not name.startswith("bale"), name))
    if not libraries:
        return []
    index = {(r["case"], r["library"], r["operation"]): r for r in rows}
    out = ["| library | | " + " | ".join(PER_TYPE) + " |", "|---|---|" + "---:|" * len(PER_TYPE)]
    for library in libraries:
        for label, op in (("serialize", "write"), ("deserialize", "read"), ("size", None)):
            cells = []
            for t in PER_TYPE:
                r = index.get((f"per_type_{t}", library, op or "write"))
                if r is None or r["error"] or "median" not in r:
                    cells.append("failed" if r and r["error"] else "")
                elif op is None:
                    cells.append(f"{r['size'] / 1e6:.2f} MB" if r["size"] else "")
                else:
                    cells.append(f"{r['median']:.2f} {r['unit']}")
            out.append(f"| {library if label == 'serialize' else ''} | {label} | " + " | ".join(cells) + " |")
    return out


def plot(rows, case, out_dir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    ops = [op for op in ("write", "read", "write_reused", "write_fixed", "read_reused", "write_file", "read_file_cold", "roundtrip",
                         "encode", "decode")
           if any(r["case"] == case and r["operation"] == op and "median" in r for r in rows)]
    if not ops:
        return None
    fig, axes = plt.subplots(1, len(ops), figsize=(4.2 * len(ops), 3.6), squeeze=False)
    for ax, op in zip(axes[0], ops):
        data = sorted(((r["library"], r["median"]) for r in rows
                       if r["case"] == case and r["operation"] == op and "median" in r), key=lambda x: x[1])
        names = [d[0] for d in data]
        colors = ["#d62728" if n.startswith("bale") else "#7f7f7f" if n.startswith(("memcpy", "vector_copy", "value_copy", "convert_insert"))
                  else "#1f77b4" for n in names]
        ax.barh(names, [d[1] for d in data], color=colors)
        ax.set_xscale("log")
        ax.set_title(op)
        ax.set_xlabel(f"time ({rows[0]['unit']}, log scale)")
        ax.invert_yaxis()
    fig.suptitle(CASES.get(case, case), fontsize=10)
    fig.tight_layout()
    path = out_dir / f"{case}.png"
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path.name


def load_published(path):
    """The published run's median of every row, by (case, library, operation)."""
    try:
        with open(path, newline="") as f:
            return {(r["case"], r["library"], r["operation"]): float(r["median"])
                    for r in csv.DictReader(f) if r.get("median")}
    except OSError:
        return {}


def slower_rows(rows, published):
    """Every row more than SLOWER_THAN_PUBLISHED times the published run's time: a mean over many rows
    would hide one that moved."""
    out = []
    for r in rows:
        before = published.get((r["case"], r["library"], r["operation"]))
        if before and "median" in r and r["median"] > before * SLOWER_THAN_PUBLISHED:
            out.append((r, before))
    out.sort(key=lambda x: -x[0]["median"] / x[1])
    if not out:
        return []
    table = ["| case | library | operation | published | this run | ratio |", "|---|---|---|---:|---:|---:|"]
    for r, before in out:
        table.append(f"| {r['case']} | {r['library']} | {r['operation']} | {fmt(before)} {r['unit']} | "
                     f"{fmt(r['median'])} {r['unit']} | {r['median'] / before:.2f}x |")
    return table


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("out_dir")
    parser.add_argument("--title", default="bale benchmark report")
    parser.add_argument("--published", default=str(pathlib.Path(__file__).resolve().parent.parent / "docs" / "benchmarks" / "bench.csv"),
                        help="the published run's bench.csv, each row of which this run is held against")
    args = parser.parse_args()
    out_dir = pathlib.Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    context, runs = load_runs(args.source)
    rows = summarize(runs)

    lines = [f"# {args.title}", "", f"Machine: {machine_line(context)}.", "",
             "Times are medians over repetitions run in random interleaved order (spread = fastest..slowest). "
             "`vs bale` = this time / bale's time for the same operation (above 1.00: slower than bale). "
             "`vs memcpy` = memcpy's time / this time (1.00: as fast as memcpy); for a JSON read the "
             "baseline is value_copy, building the same structs by copying the value. "
             "Every library's output was decoded and compared with the input; a mismatch shows as FAILED.", ""]
    if context.get("bale_mode") == "quick":
        lines += ["Quick run: the text archives (boost_text, boost_xml, cereal_json) sit out cases 1 and 2 "
                  "(10^7 doubles) and run once elsewhere; `scripts/bench.sh --full` runs everything.", ""]
    slower = slower_rows(rows, load_published(args.published))
    if slower:
        lines += [f"## Rows more than {SLOWER_THAN_PUBLISHED - 1:.0%} slower than the published run", "",
                  f"Held against `{args.published}` row by row (on another machine, or in another mode, "
                  "every row moves: compare with the peers' rows).", ""] + slower + [""]
    for case, title in CASES.items():
        if not any(r["case"] == case for r in rows):
            continue
        lines += [f"## {title}", ""]
        image = plot(rows, case, out_dir)
        if image:
            lines += [f"![{case}]({image})", ""]
        lines += case_table(rows, case) + [""]
    table = seed_table(rows)
    if table:
        lines += ["## Seed 003's table: loading 100,000 structs, three data distributions", "",
                  "Cold file = evicted from the page cache before each read; CPU is the process's CPU time "
                  "(the rest is waiting for the disk).", ""] + table + [""]
    table = json_table(rows)
    if table:
        lines += ["## 8. JSON against nlohmann, RapidJSON and simdjson On-Demand", "",
                  "Every library reads the same text (bale's) into the same structs and writes from them; "
                  "MB/s of JSON text; `bale vs X` = X's time / bale's time (above 1: bale is faster). "
                  "simdjson has no writer. The floor is what no library can beat: for a write, copying the "
                  "finished text into a new string (memcpy); for a read, building the same structs by copying "
                  "the value (value_copy: the allocations and insertions, no text). `bale vs floor` = the "
                  "floor's time / bale's time (1.00: bale costs only the floor).", ""] + table + [""]
    table = base64_table(rows)
    if table:
        lines += ["## 9. base64 against coreutils", "",
                  "MB/s of raw bytes. bale, bale AVX2 and bale portable are the codec in memory: bale with the "
                  "widest kernel the CPU runs, chosen at run time (AVX-512 VBMI, else AVX2), bale AVX2 with the "
                  "AVX2 kernel (on CPUs that have it), portable forced with `options.vectorized = false`. "
                  "coreutils' codec alone is estimated as "
                  "its process time less its start-up (the same command on an empty file). The process columns "
                  "time `base64 -w 0 FILE` / `base64 -d FILE` and the same job done by bale "
                  "(`bale_base64_tool`: maps the file, codes it in 48 KiB blocks), output to /dev/null.", ""] + table + [""]
    table = per_type_table(rows)
    if table:
        lines += ["## 3. 10^6 random values of each type (seed 001's table), in memory", ""] + table + [""]
    # written by the compile, MPI and collective file benchmarks
    for extra in ("compile.md", "mpi.md", "mpi_file_ompio.md", "mpi_file_romio321.md", "python.md"):
        table_file = out_dir / extra
        if table_file.exists():
            lines += [table_file.read_text()]
    report = "\n".join(lines)
    (out_dir / "report.md").write_text(report + "\n")

    fields = ["case", "library", "operation", "median", "min", "max", "cpu", "unit", "gbps", "size", "reps",
              "vs_bale", "vs_memcpy", "error"]
    with open(out_dir / "bench.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        for r in sorted(rows, key=lambda r: (r["case"], r["operation"], r["library"])):
            writer.writerow({k: r.get(k) for k in fields})
    (out_dir / "figures.json").write_text(json.dumps(rows, indent=1))
    print(report)
    for line in slower[2:]:
        print(f"SLOWER than published: {line}", file=sys.stderr)
    failed = [r for r in rows if r["error"]]
    for r in failed:
        print(f"FAILED: {r['case']}/{r['library']}/{r['operation']}: {r['error']}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
