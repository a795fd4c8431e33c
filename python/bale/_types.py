# SPDX-License-Identifier: BSL-1.0
"""The Python types bale values are made of, and bale.Error."""


class Record(dict):
    """A record (a struct's members, by name, in the writer's order), with attribute access."""

    __slots__ = ()

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        return "Record(" + ", ".join(f"{k}={v!r}" for k, v in self.items()) + ")"


class Variant:
    """A std::variant's value: which alternative (its position in the schema) and the value."""

    __slots__ = ("index", "value")

    def __init__(self, index, value):
        self.index = index
        self.value = value

    def __eq__(self, other):
        return (isinstance(other, Variant) and self.index == other.index
                and _equal(self.value, other.value))

    def __hash__(self):
        return hash((self.index, self.value))

    def __repr__(self):
        return f"Variant({self.index}, {self.value!r})"


def structured(records, dtype):
    """Records of numbers read one by one (compact) as the structured array binary gives."""
    import numpy

    def fields(v):
        return tuple(fields(x) for x in v.values()) if isinstance(v, dict) else v

    return numpy.array([fields(r) for r in records], dtype=dtype)


def _equal(a, b):
    try:
        import numpy
        if isinstance(a, numpy.ndarray) or isinstance(b, numpy.ndarray):
            return numpy.array_equal(a, b)
    except ImportError:
        pass
    return a == b


class Error(Exception):
    """Bad bytes, a damaged or unreadable file, a limit reached: what the C++ reader throws.

    code: the bale::errc name ("end_of_input", "checksum_mismatch", ...); offset: the byte of
    the file (or input) where the problem was found, or None; path: the member path of the value
    being read ("cells[3].corners[1].flag"), "" at the top; detail: the description alone.
    str(error) is the C++ error's what().
    """

    def __init__(self, code, message, offset=None, path="", detail=""):
        super().__init__(message)
        self.code = code
        self.offset = offset
        self.path = path
        self.detail = detail or message


for _cls in (Record, Variant, Error):
    _cls.__module__ = "bale"
