# SPDX-License-Identifier: BSL-1.0
"""Python writes what C++ writes: the same bytes for the same value and schema, files that
bale::load_file<T> and bale::record_reader<T> read, and bale.Error for values the schema cannot
hold."""

import os
import subprocess

import numpy
import pytest

import bale

FILES = ["everything.bale", "everything_compact.bale", "grids.bale", "grids_compact.bale",
         "grids_lz4.bale", "grids_zstd.bale", "reals.bale", "block.bale", "strided.bale"]


@pytest.mark.parametrize("name", FILES)
def test_a_file_read_and_written_again_is_the_same_bytes(written, tmp_path, name):
    f = bale.open(written / name)
    bale.save(tmp_path / name, f.value, f, format=f.format, compression=f.compression)
    assert (tmp_path / name).read_bytes() == (written / name).read_bytes()
    if f.compression == "none":  # the payload is bale::serialize's bytes
        at = f._reader.header()["payload_offset"]
        assert bale.encode(f.value, f.schema, f.format) == (written / name).read_bytes()[at:]


@pytest.mark.parametrize("name", ["particles.bales", "particles_compact.bales"])
def test_record_files_written_again_are_the_same_bytes(written, tmp_path, name):
    rs = bale.records(written / name)
    with bale.RecordWriter(tmp_path / name, rs, format=rs.format) as w:
        for r in rs:
            w.write(r)
        assert len(w) == len(rs)
    assert (tmp_path / name).read_bytes() == (written / name).read_bytes()
    with bale.RecordWriter(tmp_path / "again.bales", rs, format=rs.format) as w:
        w.write_all(rs.as_array())  # the elements of a structured array
    assert (tmp_path / "again.bales").read_bytes() == (written / name).read_bytes()


def test_cpp_reads_what_python_writes(written, tmp_path):
    for name in ("everything.bale", "everything_compact.bale", "grids.bale"):
        f = bale.open(written / name)
        bale.save(tmp_path / name, f.value, f, format=f.format)
    with bale.RecordWriter(tmp_path / "particles.bales", bale.records(written / "particles.bales")) as w:
        for i in range(100):
            w.write({"x": 1.0 * i, "y": 2.0 * i, "z": 3.0 * i, "mass": 0.5 * i, "id": i})
    # Schemas from NumPy alone: an N-D array is an array of bale/arrays, in its own layout; a
    # 1-D structured array a std::vector of structs.
    matrix = numpy.asfortranarray(numpy.array([[0.0, 1, 2], [10, 11, 12]]))
    bale.save(tmp_path / "numpy_matrix.bale", matrix, bale.schema_of(matrix))
    points = numpy.array([(1, 2, 3), (4, 5, 6)], dtype=[("x", "<f8"), ("y", "<f8"), ("z", "<f8")])
    bale.save(tmp_path / "numpy_points.bale", points, bale.schema_of(points))
    assert bale.load(tmp_path / "numpy_matrix.bale").flags["F_CONTIGUOUS"]
    writer = os.environ.get("BALE_WRITE")
    if writer is None:
        pytest.skip("BALE_WRITE is not set (ctest sets it)")
    subprocess.run([writer, "--check", str(tmp_path)], check=True)


def test_schemas_from_numpy():
    assert bale.schema_of(numpy.dtype("<i2")) == '"i16"'
    assert bale.schema_of(numpy.zeros(3, dtype="<u8")) == '{"sequence":"u64"}'
    nested = numpy.dtype([("at", [("x", "<f4")]), ("v", "<f8", (2, 3))])
    assert bale.schema_of(nested) == ('{"record":[{"name":"at","type":{"record":[{"name":"x",'
                                      '"type":"f32"}]}},{"name":"v","type":{"array":{"array":'
                                      '"f64","count":3},"count":2}}]}')
    with pytest.raises(bale.Error):
        bale.schema_of(numpy.dtype("complex64"))


@pytest.mark.parametrize("value, schema, path", [
    ([1, 2**40], '{"sequence":"i32"}', "[1]"),
    ({"a": 1}, '{"record":[{"name":"a","type":"i8"},{"name":"b","type":"i8"}]}', ""),
    ({"a": "x"}, '{"record":[{"name":"a","type":"i8"}]}', "a"),
    (True, '"i32"', ""),
    (1.5, '"bool"', ""),
    ("ab", '"char"', ""),
    ([1, 2], '{"array":"i8","count":3}', ""),
    ((1,), '{"tuple":["i8","i8"]}', ""),
    (bale.Variant(2, 1), '{"variant":["i8","i16"]}', ""),
    ("purple", '{"enum":"u8","names":{"red":0}}', ""),
    (2**70, '{"bits":64}', ""),
    (3, '{"shared":"i32"}', ""),
    ("text", '{"sequence":"u8"}', ""),
])
def test_values_the_schema_cannot_hold(value, schema, path):
    with pytest.raises(bale.Error) as e:
        bale.encode(value, schema)
    assert e.value.code == "invalid_value" and e.value.path == path


def test_a_failed_save_leaves_no_file(tmp_path):
    with pytest.raises(bale.Error):
        bale.save(tmp_path / "x.bale", [1, "two"], '{"sequence":"i32"}')
    assert list(tmp_path.iterdir()) == []


def test_writing_is_bounded_by_the_limits():
    deep = None
    for _ in range(50):
        deep = {"next": deep}
    schema = '{"record":[{"name":"next","type":{"optional":{"ref":0}}}]}'
    with pytest.raises(bale.Error) as e:
        bale.encode(deep, schema, limits=bale.Limits(max_depth=10))
    assert e.value.code == "depth_exceeded"
    assert bale.decode(bale.encode(deep, schema), schema)["next"]["next"] is not None
