# SPDX-License-Identifier: BSL-1.0
"""bale files in Python: any file bale writes, read by the schema it carries.

    import bale
    value = bale.load("state.bale")        # records as bale.Record, arrays as numpy.ndarray
    with bale.open("state.bale") as f:     # the header and schema now, the value on demand
        print(f.format, f.schema)
        grid = f.value
    for particle in bale.records("run.bales"):
        ...

The reading is bale's own C++ readers and decoder by schema (the module bale._core), so a
file is checked as bale::load_file checks it, and bad bytes raise bale.Error, never another
exception. See docs/python.md for the type mapping and what is a view and what a copy.
"""

import builtins
import json as _json
from dataclasses import asdict as _asdict
from dataclasses import dataclass as _dataclass

from ._types import Error, Record, Variant
from . import _core, _types

__all__ = ["load", "open", "records", "decode", "save", "encode", "schema_of", "RecordWriter",
           "Error", "Record", "Variant", "Limits",
           "limits", "File", "Records"]


@_dataclass(frozen=True)
class Limits:
    """What one read may cost; bale::limits, with the same defaults."""

    max_depth: int = 256
    max_allocation: int = 1 << 30
    max_empty_elements: int = 1 << 20
    max_empty_bytes: int = 1 << 20
    max_bucket_keys: int = 64
    max_objects: int = 1 << 24
    max_stack_bytes: int = 4 << 20


limits = Limits()


def _limits_dict(given):
    return _asdict(given if given is not None else limits)


def _self_described(fmt, payload, lim):
    """A JSON or MessagePack payload, read by Python's own readers (objects as Record)."""
    try:
        if fmt == "json":
            return _json.loads(payload, object_pairs_hook=Record)
        try:
            import msgpack
        except ImportError:
            raise Error("wrong_type", "bale: wrong_type: reading MessagePack needs python3-msgpack",
                        None, "", "reading MessagePack needs python3-msgpack") from None
        return msgpack.unpackb(payload, raw=False, strict_map_key=False,
                               object_pairs_hook=Record)
    except Error:
        raise
    except RecursionError:
        raise Error("depth_exceeded", "bale: depth_exceeded: nesting deeper than Python allows",
                    None, "", "nesting deeper than Python allows") from None
    except (ValueError, TypeError, UnicodeDecodeError) as e:
        text = f"{fmt} payload does not parse: {e}"
        raise Error("invalid_value", "bale: invalid_value: " + text, None, "", text) from None
    except Exception as e:  # msgpack's own exceptions (ExtraData, FormatError, StackError)
        text = f"{fmt} payload does not parse: {type(e).__name__}: {e}"
        raise Error("invalid_value", "bale: invalid_value: " + text, None, "", text) from None


class _Closing:
    """A context manager whose exit is close()."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class File(_Closing):
    """A .bale file (bale::save_file): mapped and checked at open, its value decoded on demand.

    format, version, compression, fingerprint, schema: from the header and schema block.
    value: the value (decoded once, then kept); arrays in it view the file's bytes.
    """

    def __init__(self, path, *, limits=None, verify_checksum=True, map=True):  # noqa: A002
        self.path = str(path)
        self._limits = limits if limits is not None else globals()["limits"]
        self._reader = _core.FileReader(path, verify_checksum, map, _limits_dict(self._limits))
        header = self._reader.header()
        self.format = header["format"]
        self.version = header["version"]
        self.compression = header["compression"]
        self.fingerprint = header["fingerprint"]
        self.schema = header["schema"]
        self._decoded = False
        self._value = None

    @property
    def value(self):
        if not self._decoded:
            if self._reader.packed():
                self._value = self._reader.value()
            else:
                self._value = _self_described(self.format, self._reader.payload(), self._limits)
            self._decoded = True
        return self._value

    def close(self):
        """Drops this object's hold on the bytes; arrays already handed out keep them alive."""
        self._reader = None


    def __repr__(self):
        return f"bale.File({self.path!r}, format={self.format!r}, version={self.version})"


def open(path, *, limits=None, verify_checksum=True, map=True):  # noqa: A001,A002
    """Maps (or with map=False reads) and checks a .bale file; its value is decoded when first
    asked for. verify_checksum=False skips the pass over the whole file that checks its CRC32C:
    a mapped file's pages are then read only when they are used."""
    return File(path, limits=limits, verify_checksum=verify_checksum, map=map)


def load(path, *, limits=None, verify_checksum=True, map=True):  # noqa: A002
    """The value a .bale file holds, by the schema it carries."""
    return File(path, limits=limits, verify_checksum=verify_checksum, map=map).value


class Records(_Closing):
    """A record file (bale::record_writer, bale::mpi::save_file): iterable, one record at a time.

    len() and [i] (and slices) go through the index of an indexed file (version 3) without
    reading other records; in a file without one they read the records before. writers: an
    indexed file's writers (ranks), each the range of its record numbers.
    """

    def __init__(self, path, *, limits=None):
        self.path = str(path)
        self._limits = limits if limits is not None else globals()["limits"]
        self._reader = _core.RecordsReader(path, _limits_dict(self._limits))
        header = self._reader.header()
        self.format = header["format"]
        self.version = header["version"]
        self.schema = header["schema"]
        self.indexed = header["indexed"]
        self._count = header.get("count")
        firsts = header.get("first_of_writers")
        self.writers = ([range(firsts[w], firsts[w + 1]) for w in range(len(firsts) - 1)]
                        if firsts is not None else None)

    def _value(self, raw):
        if isinstance(raw, bytes) and self.format in ("json", "msgpack"):
            return _self_described(self.format, raw, self._limits)
        return raw

    def __iter__(self):
        self._reader.rewind()
        while True:
            raw = self._reader.next()
            if raw is None:
                return
            yield self._value(raw)

    def __len__(self):
        if self._count is None:
            self._reader.rewind()
            n = 0
            while self._reader.next() is not None:
                n += 1
            self._count = n
        return self._count

    def _at(self, i):
        if self.indexed:
            self._reader.seek(i)
            return self._value(self._reader.next())
        for n, v in enumerate(self):
            if n == i:
                return v
        raise IndexError(i)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return [self._at(i) for i in range(*key.indices(len(self)))]
        n = len(self)
        i = key + n if key < 0 else key
        if not 0 <= i < n:
            raise IndexError(f"record {key} of {n}")
        return self._at(i)

    def as_array(self, *, verify_checksum=True):
        """Every record as one structured numpy.ndarray, for records of numbers at fixed places
        (members that are numbers, fixed arrays and records of them). In a binary file the
        array is a read-only view of the file, mapped: records at a regular stride, their
        prefixes skipped; every record's size and checksum are checked first. Otherwise (compact)
        the records are decoded into a new array."""
        import mmap
        import numpy
        fixed = self._reader.fixed_dtype()
        if fixed is None:
            text = "records that are not numbers at fixed places: iterate over them instead"
            raise Error("wrong_type", "bale: wrong_type: " + text, None, "", text)
        record, size = fixed
        if size == 0:  # compact: decoded, one record at a time
            return _types.structured(list(self), record)
        begin, end = self._reader.extent()
        with builtins.open(self.path, "rb") as f:
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if end > 0 else b""
        count = self._reader.check_fixed(mapped, size, verify_checksum)
        names = record.names
        dtype = numpy.dtype({"names": names,
                             "formats": [record.fields[n][0] for n in names],
                             "offsets": [record.fields[n][1] + 8 for n in names],
                             "itemsize": size + 8})
        out = numpy.ndarray((count,), dtype=dtype, buffer=mapped, offset=begin)
        out.flags.writeable = False
        return out

    def close(self):
        self._reader = None


    def __repr__(self):
        return f"bale.Records({self.path!r}, format={self.format!r}, version={self.version})"


def records(path, *, limits=None):
    """The records of a record file, decoded by its schema as they are read."""
    return Records(path, limits=limits)


def decode(data, schema, format="binary", *, limits=None):  # noqa: A002
    """Bare bytes (bale::serialize) of a type whose schema text is `schema`."""
    if isinstance(schema, bytes):
        schema = schema.decode()
    return _core.decode(data, schema, format, _limits_dict(limits))


def _schema_text(schema):
    if isinstance(schema, bytes):
        return schema.decode()
    if isinstance(schema, (File, Records)):
        return schema.schema
    return schema if isinstance(schema, str) else schema_of(schema)


def encode(value, schema, format="binary", *, limits=None):  # noqa: A002
    """The bytes bale::serialize writes for `value` of a type whose schema is `schema` (a
    schema text, a File or Records whose schema to take, or a NumPy dtype or array)."""
    return _core.encode(value, _schema_text(schema), format, _limits_dict(limits))


def save(path, value, schema, *, format="binary", compression="none", level=0,  # noqa: A002
         sync=True, limits=None):
    """Writes a .bale file of `value` as bale::save_file writes it for a C++ value of that
    schema (atomically: a temporary file, then a rename), which bale::load_file<T> reads."""
    _core.save(str(path), value, _schema_text(schema), format, compression, level, sync,
               _limits_dict(limits))


_NUMBERS = {"i1": "i8", "i2": "i16", "i4": "i32", "i8": "i64", "u1": "u8", "u2": "u16",
            "u4": "u32", "u8": "u64", "f4": "f32", "f8": "f64", "b1": "bool"}
_LAYOUT = '{"enum":"u8","names":{"row_major":0,"column_major":1}}'


def _number_schema(dtype):
    import numpy
    dtype = numpy.dtype(dtype)
    if dtype.names:
        members = ",".join('{"name":%s,"type":%s}' % (_json.dumps(n), schema_of(dtype.fields[n][0]))
                           for n in dtype.names)
        return '{"record":[' + members + ']}'
    if dtype.subdtype is not None:
        base, shape = dtype.subdtype
        text = schema_of(base)
        for n in reversed(shape):
            text = '{"array":%s,"count":%d}' % (text, n)
        return text
    key = dtype.kind + str(dtype.itemsize)
    if key not in _NUMBERS:
        raise Error("wrong_type", f"bale: wrong_type: no schema form for dtype {dtype}", None, "",
                    f"no schema form for dtype {dtype}")
    return '"%s"' % _NUMBERS[key]


def schema_of(what):
    """The schema text bale::schema_of<T>() gives for the C++ type NumPy's `what` stands for: a
    dtype (a number, or a structured dtype: a struct of its fields), or an array: a 1-D array is
    a std::vector of its dtype, an N-D one an array of bale/arrays (Eigen, boost::multi_array)."""
    import numpy
    if isinstance(what, numpy.ndarray):
        element = _number_schema(what.dtype)
        if what.ndim == 1:
            return '{"sequence":%s}' % element
        return ('{"record":[{"name":"layout","type":%s},{"name":"extents","type":{"array":"u64",'
                '"count":%d}},{"name":"data","type":{"sequence":%s}}]}' % (_LAYOUT, what.ndim,
                                                                            element))
    return _number_schema(what)


class RecordWriter(_Closing):
    """Writes a record file (as bale::record_writer): one record per write(value), of `schema`.
    close() (or leaving a with block) writes what is buffered and syncs, raising on failure."""

    def __init__(self, path, schema, *, format="binary", limits=None):  # noqa: A002
        self.path = str(path)
        self._writer = _core.RecordsWriter(self.path, _schema_text(schema), format,
                                           _limits_dict(limits))

    def write(self, value):
        self._writer.write(value)

    def write_all(self, values):
        """Every record of an iterable; for a structured array, each of its elements."""
        for v in values:
            self._writer.write(v)

    def __len__(self):
        return self._writer.count()

    def close(self):
        self._writer.close()

