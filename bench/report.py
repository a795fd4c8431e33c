#!/usr/bin/env python3
"""Turns Google Benchmark JSON into the tables bale reports: median time over repetitions, the
spread (min..max), throughput, encoded size, and each row's ratio to the baseline measured in the
same run. Writes results/report.md and results/bench.csv and prints the tables.

Benchmark names are "<case>/<library>/<operation>".
"""
import csv
import json
import pathlib
import statistics
import sys

# For each case and operation: the baseline it is compared with, measured in the same run.
BASELINES = {
    "double_array": {op: f"double_array/memcpy/{op}" for op in
                     ("write_reused", "write_new", "read_reused", "read_new")},
    "seed_struct": {"copy": "seed_struct/vector_copy/copy", "write": "seed_struct/vector_copy/copy",
                    "read": "seed_struct/vector_copy/copy", "roundtrip": "seed_struct/memcpy/roundtrip"},
}

TITLES = {
    "double_array": "std::vector<double>, 10^7 elements, in memory",
    "seed_struct": "100,000 x struct { float vec[4]; int i; float f; }, in memory",
    "tuple_roundtrip": "500,000 round trips of tuple<int, uint64_t, vector<uint8_t>, string>",
}


def load(path):
    data = json.loads(pathlib.Path(path).read_text())
    runs = {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        name = b.get("run_name", b["name"]).split("/repeats:")[0]
        entry = runs.setdefault(name, {"times": [], "bps": [], "size": None, "error": None, "unit": b["time_unit"]})
        if b.get("error_occurred"):
            entry["error"] = b.get("error_message", "error")
            continue
        entry["times"].append(b["real_time"])
        if "bytes_per_second" in b:
            entry["bps"].append(b["bytes_per_second"])
        if "encoded_bytes" in b:
            entry["size"] = int(b["encoded_bytes"])
    return data.get("context", {}), runs


def fmt_time(value, unit):
    return f"{value:,.3f} {unit}"


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else "results/bench.json"
    out_dir = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else "results")
    out_dir.mkdir(parents=True, exist_ok=True)
    context, runs = load(source)

    rows = []
    for name, r in sorted(runs.items()):
        case, library, op = name.split("/", 2)
        row = {"case": case, "library": library, "operation": op, "error": r["error"], "unit": r["unit"],
               "median": statistics.median(r["times"]) if r["times"] else None,
               "min": min(r["times"]) if r["times"] else None, "max": max(r["times"]) if r["times"] else None,
               "gbps": statistics.median(r["bps"]) / 1e9 if r["bps"] else None,
               "size": r["size"], "reps": len(r["times"])}
        base = BASELINES.get(case, {}).get(op)
        if base and base in runs and runs[base]["times"] and row["median"]:
            row["vs_baseline"] = statistics.median(runs[base]["times"]) / row["median"]
            row["baseline"] = base.split("/", 1)[1]
        rows.append(row)

    lines = ["# bale benchmark report", ""]
    machine = f"{context.get('num_cpus', '?')} CPUs at {context.get('mhz_per_cpu', '?')} MHz"
    lines.append(f"Machine: {machine}; library build: {context.get('library_build_type', '?')}; "
                 f"date: {context.get('date', '?')}.")
    lines.append("Times are medians over repetitions (spread = min..max); `vs baseline` is the baseline's "
                 "time divided by this row's (above 1.0 is faster than the baseline).")
    lines.append("")
    for case in sorted({r["case"] for r in rows}):
        lines.append(f"## {TITLES.get(case, case)}")
        lines.append("")
        lines.append("| library | operation | median | spread | GB/s | encoded bytes | vs baseline |")
        lines.append("|---|---|---:|---:|---:|---:|---:|")
        for r in [r for r in rows if r["case"] == case]:
            if r["error"]:
                lines.append(f"| {r['library']} | {r['operation']} | FAILED: {r['error']} | | | | |")
                continue
            spread = f"{r['min']:,.3f}..{r['max']:,.3f}"
            gbps = f"{r['gbps']:.2f}" if r["gbps"] else ""
            size = f"{r['size']:,}" if r["size"] is not None else ""
            ratio = f"{r['vs_baseline']:.2f} (vs {r['baseline']})" if "vs_baseline" in r else ""
            lines.append(f"| {r['library']} | {r['operation']} | {fmt_time(r['median'], r['unit'])} | {spread} "
                         f"| {gbps} | {size} | {ratio} |")
        lines.append("")
    report = "\n".join(lines)
    (out_dir / "report.md").write_text(report + "\n")
    with open(out_dir / "bench.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["case", "library", "operation", "median", "min", "max", "unit",
                                               "gbps", "size", "reps", "baseline", "vs_baseline", "error"])
        writer.writeheader()
        for r in rows:
            writer.writerow({k: r.get(k) for k in writer.fieldnames})
    print(report)
    failed = [r for r in rows if r["error"]]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
