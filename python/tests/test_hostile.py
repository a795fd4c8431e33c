# SPDX-License-Identifier: BSL-1.0
"""Bytes nobody trusts: truncated, bit-flipped, random and hostile files and inputs raise
bale.Error with the C++ reader's code, and never any other exception."""

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import bale

SMALL = ["everything.bale", "everything_compact.bale", "grids.bale", "grids_zstd.bale",
         "particles.bales", "particles_compact.bales", "indexed.bales"]


def read_all(path, **options):
    if path.name.endswith(".bales"):
        rs = bale.records(path, **options)
        return [rs[i] for i in range(len(rs))] if rs.indexed else list(rs)
    return bale.load(path, **options)


def outcome(path, **options):
    """None when the file reads, else the code of the bale.Error (any other exception fails)."""
    try:
        read_all(path, **options)
        return None
    except bale.Error as e:
        assert isinstance(e.code, str) and str(e).startswith("bale: " + e.code)
        return e.code


def cpp_code(inspect, path):
    status, _, stderr = inspect(path)
    found = re.search(r"bale: (?!bale)([a-z_]+): ", stderr)
    return found.group(1) if status == 1 and found else None


@pytest.mark.parametrize("name", SMALL)
def test_truncated_files_fail_as_in_cpp(written, inspect, tmp_path, name):
    data = (written / name).read_bytes()
    cut = tmp_path / name
    lengths = sorted(set(list(range(0, 64)) + random.Random(1).sample(range(len(data)), 24)))
    for n in lengths:
        cut.write_bytes(data[:n])
        ours = outcome(cut)
        # A record file without an index cut between two records is a shorter record file.
        assert ours is not None or name.startswith("particles"), n
        if n >= 4:  # shorter, bale-inspect cannot tell a record file from a file
            assert ours == cpp_code(inspect, cut), n


@pytest.mark.parametrize("name", SMALL)
def test_flipped_bits_fail_as_in_cpp(written, inspect, tmp_path, name):
    data = bytearray((written / name).read_bytes())
    damaged = tmp_path / name
    rng = random.Random(2)
    for at in sorted(rng.sample(range(len(data)), min(40, len(data)))):
        flipped = bytearray(data)
        flipped[at] ^= 1 << rng.randrange(8)
        damaged.write_bytes(bytes(flipped))
        ours = outcome(damaged)
        assert ours == cpp_code(inspect, damaged), at


@pytest.mark.parametrize("name", ["everything.bale", "everything_compact.bale", "grids.bale"])
def test_damage_past_the_checksum_reaches_only_bale_errors(written, tmp_path, name):
    # With the checksum unchecked, damage reaches the decoder: it must still only raise bale.Error.
    data = bytearray((written / name).read_bytes())
    damaged = tmp_path / name
    rng = random.Random(3)
    header = bale.open(written / name)._reader.header()["payload_offset"]
    for _ in range(300):
        flipped = bytearray(data)
        for _ in range(rng.randrange(1, 4)):
            flipped[rng.randrange(header, len(data))] = rng.randrange(256)
        damaged.write_bytes(bytes(flipped))
        outcome(damaged, verify_checksum=False)


def test_limits_are_the_cpp_limits(written):
    with pytest.raises(bale.Error) as e:
        bale.load(written / "everything.bale", limits=bale.Limits(max_depth=2))
    assert e.value.code == "depth_exceeded"
    with pytest.raises(bale.Error) as e:
        bale.load(written / "everything_compact.bale", limits=bale.Limits(max_allocation=64))
    assert e.value.code == "allocation_limit"
    with pytest.raises(bale.Error) as e:
        list(bale.records(written / "particles.bales", limits=bale.Limits(max_allocation=16)))
    assert e.value.code == "allocation_limit"


def test_errors_name_the_byte_and_the_member(written):
    schema = bale.open(written / "everything.bale").schema
    # A bool byte of 7 in the first member.
    with pytest.raises(bale.Error) as e:
        bale.decode(b"\x07", schema)
    assert e.value.code == "invalid_value" and e.value.offset == 0 and e.value.path == "yes"
    with pytest.raises(bale.Error) as e:
        bale.decode(b"\x01q", schema)
    assert e.value.code == "end_of_input" and e.value.path == "i8"


def test_not_bale_files(tmp_path):
    for content, code in [(b"", "end_of_input"), (b"BALE", "end_of_input"),
                          (b"hello world, not a bale file at all" * 3, "invalid_value")]:
        p = tmp_path / "x.bale"
        p.write_bytes(content)
        with pytest.raises(bale.Error) as e:
            bale.load(p)
        assert e.value.code == code
    with pytest.raises(bale.Error) as e:
        bale.load(tmp_path / "missing.bale")
    assert e.value.code == "io_error"


HOSTILE_SCHEMAS = ['', '{', '"f128"', '{"sequence":{"sequence":' * 300 + '"i8"' + '}}' * 300,
                   '{"ref":0}', '{"record":[{"name":"a","type":"i8"},{"name":"a","type":"i8"}]}',
                   '{"array":"i8","count":18446744073709551615}', '{"opaque":"x"}',
                   '{"shared":"i32"}']


@pytest.mark.parametrize("schema", HOSTILE_SCHEMAS)
def test_hostile_schemas(schema):
    with pytest.raises(bale.Error):
        bale.decode(b"\x00" * 16, schema)


SCHEMAS = ['{"record":[{"name":"a","type":{"sequence":"f64"}},{"name":"b","type":"string"}]}',
           '{"map":["string",{"sequence":{"optional":"i32"}}]}',
           '{"record":[{"name":"next","type":{"optional":{"ref":0}}},{"name":"v","type":"u8"}]}',
           '{"variant":["none",{"set":"i16"},{"tuple":["char",{"bits":70}]}]}',
           '{"array":{"enum":"u8","names":{"a":0,"b":1}},"count":3}']


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SCHEMAS), st.sampled_from(["binary", "compact"]), st.binary(max_size=96))
def test_random_bytes_raise_only_bale_errors(schema, fmt, data):
    try:
        bale.decode(data, schema, fmt)
    except bale.Error:
        pass


def test_records_as_one_array_checks_every_record(written, tmp_path):
    data = bytearray((written / "particles.bales").read_bytes())
    begin, end = bale.records(written / "particles.bales")._reader.extent()
    stride = (end - begin) // 100
    damaged = tmp_path / "p.bales"
    flipped = bytearray(data)
    flipped[begin + 5 * stride + 20] ^= 1
    damaged.write_bytes(bytes(flipped))
    with pytest.raises(bale.Error) as e:
        bale.records(damaged).as_array()
    assert e.value.code == "checksum_mismatch" and e.value.offset == begin + 5 * stride
    assert bale.records(damaged).as_array(verify_checksum=False)["id"][99] == 99
    damaged.write_bytes(bytes(data[:-3]))
    with pytest.raises(bale.Error) as e:
        bale.records(damaged).as_array()
    assert e.value.code == "invalid_value"
    with pytest.raises(bale.Error) as e:
        bale.records(written / "everything.bale")
    assert e.value.code == "invalid_value"
    with pytest.raises(bale.Error) as e:
        bale.open(written / "particles.bales")
    assert e.value.code == "invalid_value"
