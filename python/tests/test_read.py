# SPDX-License-Identifier: BSL-1.0
"""Files the C++ writer wrote, read in Python: every value as the C++ reader gives it."""

import json

import numpy
import pytest

import bale
from canonical import canonical, inspect_sets_sorted

EVERYTHING = {
    "yes": True, "letter": "q", "i8": -8, "i16": -1600, "i32": -320000, "i64": -6400000000,
    "u8": 200, "u16": 60000, "u32": 4000000000, "u64": 18000000000000000000,
    "f32": 1.5, "f64": -2.25, "text": "h\u00e9llo", "not_utf8": b"\xff\xfe", "wide": "w\u00e9",
    "words": ["a", "b"], "unique": {1, 2, 3}, "repeated": [1, 1, 2],
    "named": {"one": 1, "two": 2}, "numbered": {1: "one", 2: "two"},
    "pairs": [(1, 10), (1, 11)], "pair": (7, "seven"), "triplet": (1, 2.5, "three"),
    "some": 42, "nothing": None, "either": bale.Variant(1, "right"), "shade": "blue",
    "flags": 0b1011 | (1 << 69), "wait": 1500,
}


@pytest.mark.parametrize("name", ["everything.bale", "everything_compact.bale"])
def test_every_standard_type(written, name):
    v = bale.load(written / name)
    assert isinstance(v, bale.Record)
    for key, expected in EVERYTHING.items():
        assert v[key] == expected, key
        assert type(v[key]) is type(expected), key
    assert v.ints.dtype == numpy.int32 and v.ints.tolist() == [1, -2, 3]
    assert v.reals.dtype == numpy.float64 and v.reals.tolist() == [0.5, 1.5]
    assert v.triple.dtype == numpy.float32 and v.triple.tolist() == [1, 2, 3]
    [(key, value)] = v.list_keys
    assert key.tolist() == [1, 2] and value == 3
    # A vector of records of numbers: one structured array, its fields the members.
    assert v.points.dtype.names == ("x", "y", "z") and v.points.dtype.itemsize == 24
    assert v.points["y"].tolist() == [2.0, 5.0] and v.points[1]["z"] == 6.0
    # Nested records and fixed arrays are fields and subarrays, at binary's packed offsets.
    b = v.bodies
    assert b.dtype.names == ("at", "velocity", "tag", "cells") and b.dtype.itemsize == 45
    assert [b.dtype.fields[n][1] for n in b.dtype.names] == [0, 24, 36, 37]
    assert b["at"]["y"].tolist() == [2.0, 9.0] and b["velocity"][1].tolist() == [11, 12, 13]
    assert b["tag"].tolist() == [-7, 14] and b["cells"][1].tolist() == [[5, 6], [7, 8]]
    with pytest.raises(AttributeError):
        v.no_such_member


def test_arrays_keep_shape_and_layout(written):
    g = bale.load(written / "grids.bale")
    assert g.column_major.shape == (3, 4) and g.column_major.flags["F_CONTIGUOUS"]
    assert g.column_major[2, 3] == 23 and g.column_major[1, 0] == 10
    assert g.row_major.shape == (2, 3) and g.row_major.flags["C_CONTIGUOUS"]
    assert g.row_major.dtype == numpy.float32 and g.row_major[1, 2] == 12
    assert g.cube.shape == (2, 3, 4) and g.cube.dtype == numpy.int32 and g.cube[1, 2, 3] == 123
    assert g.four.shape == (2, 1, 3, 2)
    assert g.four.ravel().tolist() == list(range(12))
    assert g.one.shape == (5,) and g.one.tolist() == [0, 0.5, 1, 1.5, 2]


def test_strided_views_are_arrays_of_their_extents(written):
    block = bale.load(written / "block.bale")
    assert block.shape == (2, 2) and block.tolist() == [[11, 12], [21, 22]]
    strided = bale.load(written / "strided.bale")
    four = bale.load(written / "grids.bale").four
    assert strided.shape == (2, 2, 2)
    assert numpy.array_equal(strided, four[:, 0, 0:3:2, :])


@pytest.mark.parametrize("mapped", [True, False])
def test_arrays_view_the_file_read_only(written, mapped):
    f = bale.open(written / "reals.bale", map=mapped)
    a = f.value
    assert a.shape == (100000,) and a[4] == 1.0
    assert not a.flags["OWNDATA"] and not a.flags["WRITEABLE"]
    with pytest.raises(ValueError):
        a[0] = 1
    f.close()
    del f
    assert a[99999] == 99999 * 0.25  # the array keeps the bytes alive


@pytest.mark.parametrize("name", ["grids_compact.bale", "grids_lz4.bale", "grids_zstd.bale"])
def test_arrays_that_cannot_be_viewed_are_copies(written, name):
    view = bale.load(written / "grids.bale")
    other = bale.open(written / name)
    assert other.compression == {"grids_lz4.bale": "lz4", "grids_zstd.bale": "zstd"}.get(name, "none")
    for key, a in view.items():
        assert numpy.array_equal(other.value[key], a), key
        assert other.value[key].flags["C_CONTIGUOUS"] == a.flags["C_CONTIGUOUS"]


def test_open_reads_the_header_first(written):
    with bale.open(written / "everything.bale") as f:
        assert f.format == "binary" and f.version == 2 and f.compression == "none"
        assert json.loads(f.schema)["record"][0] == {"name": "yes", "type": "bool"}
        assert f.value.i8 == -8
        assert f.value is f.value  # decoded once


@pytest.mark.parametrize("name", ["points.json.bale", "points.msgpack.bale"])
def test_self_describing_files(written, name):
    f = bale.open(written / name)
    assert f.format == name.split(".")[1]
    assert f.value == [{"x": 1, "y": 2, "z": 3}, {"x": 4, "y": 5, "z": 6}]
    assert f.value[0].y == 2


def test_record_files(written):
    rs = bale.records(written / "particles.bales")
    assert rs.format == "binary" and rs.version == 2 and not rs.indexed
    assert len(rs) == 100
    assert [r.id for r in rs] == list(range(100))
    assert rs[7] == {"x": 7.0, "y": 14.0, "z": 21.0, "mass": 3.5, "id": 7}
    assert rs[-1].id == 99 and [r.id for r in rs[10:13]] == [10, 11, 12]
    with pytest.raises(IndexError):
        rs[100]
    compact = bale.records(written / "particles_compact.bales")
    assert [r.mass for r in compact] == [0.5 * i for i in range(10)]


def test_indexed_record_files(written):
    rs = bale.records(written / "indexed.bales")
    assert rs.indexed and rs.version == 3 and len(rs) == 5
    assert rs.writers == [range(0, 3), range(3, 5)]
    assert rs[4].id == 104 and rs[0].id == 100
    assert [r.id for r in rs[rs.writers[1].start:rs.writers[1].stop]] == [103, 104]
    assert [r.id for r in rs] == [100, 101, 102, 103, 104]


FILES = ["everything.bale", "everything_compact.bale", "grids.bale", "grids_compact.bale",
         "grids_lz4.bale", "grids_zstd.bale", "reals.bale", "block.bale", "strided.bale"]


@pytest.mark.parametrize("name", FILES)
def test_equal_to_the_cpp_reader(written, inspect, name):
    status, line, _ = inspect(written / name)
    assert status == 0
    schema = line["schema"]
    ours = canonical(schema, bale.load(written / name), line["value"])
    assert ours == inspect_sets_sorted(schema, line["value"])


@pytest.mark.parametrize("name", ["particles.bales", "particles_compact.bales", "indexed.bales"])
def test_records_equal_to_the_cpp_reader(written, inspect, name):
    status, line, _ = inspect(written / name)
    assert status == 0
    ours = [canonical(line["schema"], r) for r in bale.records(written / name)]
    assert ours == line["records"]


def test_bare_bytes_with_a_schema(written):
    f = bale.open(written / "everything.bale")
    header = f._reader.header()
    raw = (written / "everything.bale").read_bytes()[header["payload_offset"]:]
    v = bale.decode(raw, f.schema, "binary")
    assert v.u64 == EVERYTHING["u64"] and v.points[0]["x"] == 1.0
    with pytest.raises(bale.Error) as e:
        bale.decode(raw + b"\0", f.schema)
    assert e.value.code == "trailing_bytes"


def test_records_as_one_array(written):
    a = bale.records(written / "particles.bales").as_array()
    assert a.shape == (100,) and a.dtype.names == ("x", "y", "z", "mass", "id")
    assert a["id"].tolist() == list(range(100)) and a["z"][7] == 21.0 and a["mass"][9] == 4.5
    assert not a.flags["WRITEABLE"] and not a.flags["OWNDATA"]  # a view of the mapped file
    indexed = bale.records(written / "indexed.bales").as_array()
    assert indexed["id"].tolist() == [100, 101, 102, 103, 104]
    compact = bale.records(written / "particles_compact.bales").as_array()
    assert compact.dtype.names == a.dtype.names and compact["id"].tolist() == list(range(10))
    assert numpy.array_equal(compact["x"], a["x"][:10])
