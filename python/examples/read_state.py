# SPDX-License-Identifier: BSL-1.0
"""Reads the checkpoint examples/files.cpp writes, in Python:
    python3 read_state.py DIR      (DIR: where bale_files wrote state.bale and state.compact.bale)
"""

import pathlib
import sys

import bale

directory = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp")

with bale.open(directory / "state.compact.bale") as f:
    print(f"{f.format} file, schema {f.schema}")
    state = f.value                       # a bale.Record
    print(f"step {state.step}, {len(state.temperature)} temperatures, "
          f"mean {state.temperature.mean():.2f} K, parameters {dict(state.parameters)}")
    if state.step != 42 or state.parameters["dt"] != 1e-3:
        sys.exit(1)

# bale_files flipped a byte of state.bale: the checksum catches it, as in C++.
try:
    bale.load(directory / "state.bale")
    sys.exit(1)
except bale.Error as e:
    print(f"damaged file: {e.code} at byte {e.offset}")
