#!/usr/bin/env python3
# SPDX-License-Identifier: BSL-1.0
"""Checks that bale's headers include each other only downwards through the layers of
docs/architecture.md: a header may include headers of its own folder and of lower layers, never
of a higher layer or of another folder of its own layer.

    scripts/check_layers.py [include-dir]    # exit status 1 and one line per wrong include
    scripts/check_layers.py --self-test      # shows that a wrong include is caught
"""

import os
import re
import sys
import tempfile

# Lowest first. A place is a folder under include/bale/ or a header at its top.
LAYERS = [
    ("names", ["fwd.hpp", "release.hpp"]),
    ("checksums", ["checksum"]),
    ("contract", ["core", "reflect"]),
    ("mechanisms", ["graph", "packed", "base64", "compress"]),
    ("std types", ["types"]),
    ("arrays of any rank", ["arrays"]),
    ("formats and schemas", ["binary", "compact", "json", "msgpack", "schema"]),
    ("all formats", ["formats.hpp", "convert.hpp"]),
    ("storage", ["file"]),
    ("transport", ["mpi"]),
    ("umbrellas", ["bale.hpp", "all.hpp", "schema.hpp", "registry.hpp", "mpi.hpp"]),
]
# Places of one layer that form one whole: the contract describes types (reflect) for the
# archives (core), and each uses the other; the release numbers are names; umbrellas gather.
SHARED = [{"core", "reflect"}, {"fwd.hpp", "release.hpp"},
          {"bale.hpp", "all.hpp", "schema.hpp", "registry.hpp", "mpi.hpp"}]
# Lower places that a place must still not include: formats know nothing of pointer graphs (the
# graph layer speaks to them through the archive contract only), and files ask formats.hpp what
# a format number in a header is instead of naming formats.
FORBIDDEN = {(f, "graph") for f in ["binary", "compact", "json", "msgpack", "packed", "base64"]}
FORBIDDEN |= {("file", f) for f in ["binary", "compact", "json", "msgpack"]}
# Headers kept at a former path for code written before a move: they only include the new one.
FORWARDING = {"json/convert.hpp": "convert.hpp"}

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]bale/([^">]+)[">]', re.M)


def place_of(header):
    """The place of a header path relative to include/bale/."""
    return header.split("/")[0]


def layer_of(place):
    for rank, (_, places) in enumerate(LAYERS):
        if place in places:
            return rank
    return None


def allowed(source, target):
    if FORWARDING.get(source) == target:
        return True
    a, b = place_of(source), place_of(target)
    if a == b:
        return True
    if (a, b) in FORBIDDEN:
        return False
    ra, rb = layer_of(a), layer_of(b)
    if ra is None or rb is None:
        return False
    if rb < ra:
        return True
    return ra == rb and any(a in s and b in s for s in SHARED)


def check(root):
    problems = []
    for directory, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(".hpp"):
                continue
            path = os.path.join(directory, name)
            source = os.path.relpath(path, root).replace(os.sep, "/")
            if layer_of(place_of(source)) is None:
                problems.append(f"bale/{source}: in no layer (scripts/check_layers.py LAYERS)")
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for match in INCLUDE.finditer(text):
                target = match.group(1)
                if not allowed(source, target):
                    line = text.count("\n", 0, match.start()) + 1
                    problems.append(
                        f"bale/{source}:{line}: includes bale/{target} (layer "
                        f"'{describe(target)}' from layer '{describe(source)}')")
    return problems


def describe(header):
    rank = layer_of(place_of(header))
    return "none" if rank is None else LAYERS[rank][0]


def self_test():
    cases = {
        "core/archive.hpp": '#include "bale/types/vector.hpp"\n',  # upwards: refused
        "types/vector.hpp": '#include "bale/core/archive.hpp"\n',  # downwards: allowed
        "binary/format.hpp": '#include "bale/json/format.hpp"\n',  # same layer: refused
        "json/format.hpp": "\n",
        "reflect/names.hpp": '#include "bale/core/archive.hpp"\n',  # shared layer: allowed
        "stray/x.hpp": "\n",  # in no layer: refused
        "msgpack/writer.hpp": '#include "bale/graph/object_table.hpp"\n',  # forbidden: refused
        "graph/object_table.hpp": "\n",
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in cases.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        found = sorted(p.split(":")[0] for p in check(root))
    expected = ["bale/binary/format.hpp", "bale/core/archive.hpp", "bale/msgpack/writer.hpp",
                "bale/stray/x.hpp"]
    if found != expected:
        print(f"self-test failed: flagged {found}, expected {expected}")
        return 1
    print("self-test passed: wrong includes are caught")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    here = os.path.dirname(os.path.abspath(__file__))
    root = argv[1] if len(argv) > 1 else os.path.join(here, "..", "include")
    problems = check(os.path.join(root, "bale"))
    for p in problems:
        print(p)
    if not problems:
        print("every include goes down the layers of docs/architecture.md")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
