#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Compile time and peak compiler memory of the same translation units written for bale, cereal and
Boost.Serialization: medians of several compilations, each measured with wait4 (CPU time of the
compiler and its children, their peak resident memory).

    compile_bench.py OUT_DIR [--runs N] [--cxx c++]

Writes OUT_DIR/compile.json and OUT_DIR/compile.md and prints the table."""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
INCLUDE = HERE.parent.parent / "include"

# Twenty members of five kinds, the same for every library.
KINDS = ["int", "double", "std::string", "std::vector<int>", "std::map<std::string, int>"]
MEMBERS = [(f"m{i}", KINDS[i % len(KINDS)]) for i in range(20)]
STD = "#include <map>\n#include <string>\n#include <vector>\n"


def struct(body=""):
    fields = "".join(f"  {t} {n};\n" for n, t in MEMBERS)
    return f"struct record {{\n{fields}{body}}};\n"


NAMES = ", ".join(n for n, _ in MEMBERS)
CEREAL_SERIALIZE = f"  template <class A> void serialize(A& ar) {{ ar({NAMES}); }}\n"
BOOST_SERIALIZE = ("  template <class A> void serialize(A& ar, unsigned) { ar " +
                   " ".join(f"& {n}" for n, _ in MEMBERS) + "; }\n")

CEREAL_HEADERS = ("#include <cereal/types/map.hpp>\n#include <cereal/types/string.hpp>\n"
                  "#include <cereal/types/vector.hpp>\n#include <sstream>\n")
BOOST_HEADERS = ("#include <boost/serialization/map.hpp>\n#include <boost/serialization/string.hpp>\n"
                 "#include <boost/serialization/vector.hpp>\n#include <sstream>\n")
BALE_BINARY = ('#include <bale/binary/format.hpp>\n#include <bale/core/deserialize.hpp>\n'
               '#include <bale/core/serialize.hpp>\n#include <bale/types/map.hpp>\n'
               '#include <bale/types/string.hpp>\n#include <bale/types/vector.hpp>\n')


def cereal_round_trip(archive):
    return (f"  {{ std::stringstream s; {{ cereal::{archive}OutputArchive o(s); o(r); }}\n"
            f"    cereal::{archive}InputArchive i(s); i(back); }}\n")


def boost_round_trip(archive):
    return (f"  {{ std::stringstream s; {{ boost::archive::{archive}_oarchive o(s); o << r; }}\n"
            f"    boost::archive::{archive}_iarchive i(s); i >> back; }}\n")


def program(headers, record, body):
    return f"{headers}{STD}{record}int run(const record& r, record& back) {{\n{body}  return back.m0;\n}}\n"


QUICK_START = (HERE.parent.parent / "examples" / "quick_start.cpp").read_text()
QUICK_START_CEREAL = (HERE / "quick_start_cereal.cpp").read_text()

CASES = {
    "README quick start": {"bale": QUICK_START, "cereal": QUICK_START_CEREAL},
    "include only": {
        "bale": "#include <bale/bale.hpp>\nint main() {}\n",
        "bale, all.hpp": "#include <bale/all.hpp>\nint main() {}\n",
        "cereal": ("#include <cereal/archives/binary.hpp>\n#include <cereal/archives/json.hpp>\n"
                   + CEREAL_HEADERS + "int main() {}\n"),
        "boost": ("#include <boost/archive/binary_iarchive.hpp>\n#include <boost/archive/binary_oarchive.hpp>\n"
                  "#include <boost/archive/text_iarchive.hpp>\n#include <boost/archive/text_oarchive.hpp>\n"
                  + BOOST_HEADERS + "int main() {}\n"),
        "standard headers": STD + "#include <sstream>\n#include <iostream>\nint main() {}\n",
    },
    "20-member struct, binary": {
        "bale": program(BALE_BINARY, struct(),
                        "  bale::deserialize(bale::serialize(r), back);\n"),
        "cereal": program("#include <cereal/archives/binary.hpp>\n" + CEREAL_HEADERS,
                          struct(CEREAL_SERIALIZE), cereal_round_trip("Binary")),
        "boost": program("#include <boost/archive/binary_iarchive.hpp>\n"
                         "#include <boost/archive/binary_oarchive.hpp>\n" + BOOST_HEADERS,
                         struct(BOOST_SERIALIZE), boost_round_trip("binary")),
    },
    "20-member struct, binary + JSON (Boost: + text)": {
        "bale": program("#include <bale/bale.hpp>\n#include <bale/json/format.hpp>\n", struct(),
                        "  bale::deserialize(bale::serialize(r), back);\n"
                        "  bale::from_json(bale::to_json(r), back);\n"),
        "cereal": program("#include <cereal/archives/binary.hpp>\n#include <cereal/archives/json.hpp>\n"
                          + CEREAL_HEADERS, struct(CEREAL_SERIALIZE),
                          cereal_round_trip("Binary") + cereal_round_trip("JSON")),
        "boost": program("#include <boost/archive/binary_iarchive.hpp>\n#include <boost/archive/binary_oarchive.hpp>\n"
                         "#include <boost/archive/text_iarchive.hpp>\n#include <boost/archive/text_oarchive.hpp>\n"
                         + BOOST_HEADERS, struct(BOOST_SERIALIZE),
                         boost_round_trip("binary") + boost_round_trip("text")),
    },
}


def standard_headers_of_bale(cxx):
    """A program including the standard headers that bale/bale.hpp includes, directly or not: what
    the umbrella costs apart from bale's own code."""
    listed = subprocess.run([cxx, "-std=c++20", f"-I{INCLUDE}", "-M", "-x", "c++", "-"],
                            input="#include <bale/bale.hpp>\n", capture_output=True, text=True,
                            check=True).stdout
    paths = (pathlib.Path(p) for p in listed.replace("\\\n", " ").split()[1:])
    # A standard header sits directly in the library's directory: .../c++/12/vector, .../c++/v1/map.
    names = sorted({p.name for p in paths if p.parent.parent.name == "c++" and "." not in p.name})
    return "".join(f"#include <{name}>\n" for name in names) + "int main() {}\n"


def compile_once(cxx, source, flags):
    """CPU seconds (user + system) and peak resident MB of one compilation."""
    command = [cxx, "-std=c++20", *flags, f"-I{INCLUDE}", "-c", str(source), "-o", os.devnull]
    process = subprocess.Popen(command, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    error = process.stderr.read().decode()
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{source} did not compile:\n{error}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cxx", default="c++")
    parser.add_argument("--flags", default="-O2")
    args = parser.parse_args()
    out_dir = pathlib.Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    flags = args.flags.split()
    results = []
    with tempfile.TemporaryDirectory() as work:
        sources = []
        CASES["include only"]["bale.hpp's standard headers"] = standard_headers_of_bale(args.cxx)
        for case, programs in CASES.items():
            for library, text in programs.items():
                path = pathlib.Path(work) / f"{len(sources)}.cpp"
                path.write_text(text)
                sources.append((case, library, path))
        samples = {(case, library): [] for case, library, _ in sources}
        # Round-robin, so that a slow moment of the machine touches every library alike.
        for run in range(args.runs):
            for case, library, path in sources:
                samples[(case, library)].append(compile_once(args.cxx, path, flags))
                if sys.stderr.isatty():
                    print(f"\r[compile {run + 1}/{args.runs}] {case}: {library}".ljust(70), end="",
                          file=sys.stderr, flush=True)
            if not sys.stderr.isatty():
                print(f"[compile {run + 1}/{args.runs}] done", file=sys.stderr, flush=True)
        if sys.stderr.isatty():
            print(file=sys.stderr)
        for (case, library), values in samples.items():
            results.append({"case": case, "library": library,
                            "cpu_s": statistics.median(v[0] for v in values),
                            "peak_mb": statistics.median(v[1] for v in values), "runs": len(values)})
    version = subprocess.run([args.cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    measured = "one compilation" if args.runs == 1 else f"medians of {args.runs} compilations"
    lines = ["## Compile time: the same translation units for bale, cereal and Boost.Serialization", "",
             f"`{args.cxx} -std=c++20 {args.flags} -c` ({version}); CPU time of the compiler and peak "
             f"resident memory, {measured}. `vs bale` = this CPU time / bale's. "
             "The struct has 20 members (int, double, string, vector<int>, map<string, int>, four of each); "
             "bale reflects it, cereal and Boost get a serialize function. The binary case includes bale's "
             "light headers (`bale/binary/format.hpp`, `core/serialize.hpp`, `core/deserialize.hpp` and the "
             "three `types/` headers); the JSON case `bale/bale.hpp` and `bale/json/format.hpp`. The quick "
             "start is the README's (`examples/quick_start.cpp`), against the same program for cereal "
             "(`bench/compile/quick_start_cereal.cpp`). `bale.hpp's standard headers` includes "
             "the standard headers the umbrella pulls in: its cost apart from bale's own code.", "",
             "| case | library | CPU | peak memory | vs bale |", "|---|---|---:|---:|---:|"]
    for case in CASES:
        rows = [r for r in results if r["case"] == case]
        bale = next(r["cpu_s"] for r in rows if r["library"] == "bale")
        for r in sorted(rows, key=lambda r: r["cpu_s"]):
            name = "**bale**" if r["library"] == "bale" else r["library"]
            lines.append(f"| {case} | {name} | {r['cpu_s']:.2f} s | {r['peak_mb']:.0f} MB | "
                         f"{r['cpu_s'] / bale:.2f} |")
    table = "\n".join(lines) + "\n"
    (out_dir / "compile.md").write_text(table)
    (out_dir / "compile.json").write_text(json.dumps(results, indent=1))
    print(table)


if __name__ == "__main__":
    main()
