# SPDX-License-Identifier: BSL-1.0
"""Every file under tests/golden/ (every format version), read in Python as the C++ reader
(bale-inspect) reads it."""

import pathlib
import os

import pytest

import bale
from canonical import canonical, inspect_sets_sorted

GOLDEN = pathlib.Path(os.environ.get("BALE_GOLDEN", pathlib.Path(__file__).resolve().parents[2]
                                     / "tests" / "golden"))
FILES = sorted(str(p.relative_to(GOLDEN)) for p in GOLDEN.glob("format-*/file/*"))
RECORDS = sorted(str(p.relative_to(GOLDEN)) for p in GOLDEN.glob("format-*/records/*"))


def test_every_version_is_here():
    versions = {p.split("/")[0] for p in FILES + RECORDS}
    assert versions == {p.name for p in GOLDEN.glob("format-*")} and len(versions) >= 3


@pytest.mark.parametrize("name", FILES)
def test_golden_file(inspect, name):
    status, line, _ = inspect(GOLDEN / name)
    assert status == (3 if line["value"] is None and "undecoded" in line else 0)
    f = bale.open(GOLDEN / name)
    assert (f.format, f.version, f.compression) == (line["format"], line["version"],
                                                     line["compression"])
    assert f.fingerprint == int(line["fingerprint"], 16)
    if line["value"] is None:  # a hand-described type, or a version 1 file without a schema
        with pytest.raises(bale.Error) as e:
            f.value
        assert e.value.code == "wrong_type"
        if "undecoded" in line:
            assert e.value.detail in line["undecoded"]
        return
    assert canonical(line["schema"], f.value, line["value"]) == \
        inspect_sets_sorted(line["schema"], line["value"])


@pytest.mark.parametrize("name", RECORDS)
def test_golden_records(inspect, name):
    status, line, _ = inspect(GOLDEN / name)
    rs = bale.records(GOLDEN / name)
    assert (rs.format, rs.version) == (line["format"], line["version"])
    if status == 3:  # records only their C++ type reads
        with pytest.raises(bale.Error) as e:
            list(rs)
        assert e.value.code == "wrong_type"
        return
    assert status == 0
    assert [canonical(line["schema"], r) for r in rs] == line["records"]
