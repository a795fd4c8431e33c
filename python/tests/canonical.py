# SPDX-License-Identifier: BSL-1.0
"""A value bale.load gives, spelled as bale-inspect prints it, walked along the schema: so the
Python reader and the C++ one can be compared value for value."""

import base64
import json
import math

import numpy


def records_of(schema):
    """The schema's records in text order: {"ref": k} names the k-th."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            if "record" in node:
                found.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return found


def _number(x):
    if isinstance(x, float):
        if math.isnan(x):
            return "NaN"
        if math.isinf(x):
            return "Infinity" if x > 0 else "-Infinity"
    return x


def _sorted(items):
    return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))


def canonical(schema, value, expected=None, records=None):
    """`value` (from bale) in bale-inspect's spelling; `expected` (bale-inspect's) guides where
    the Python value dropped what inspect shows (an array's layout) and is put in the same
    order where order is not kept (sets)."""
    if records is None:
        records = records_of(schema)
    node = schema

    def again(sub, v, e):
        return canonical(sub, v, e, records)

    if isinstance(node, str):
        if node == "string":
            if isinstance(value, bytes):
                return {"not_utf8": base64.b64encode(value).decode()}
            return value
        if node == "none":
            return None
        if isinstance(value, numpy.generic):
            value = value.item()
        return _number(value)
    if "ref" in node:
        return again(records[node["ref"]], value, expected)
    kind = next(iter(node))
    if kind == "enum":
        return value
    if kind == "string":
        width = {"char16": "utf-16-le", "wchar16": "utf-16-le"}.get(node["string"], "utf-32-le")
        if isinstance(value, str) and node["string"] != "char8":
            units = value.encode(width, "surrogatepass")
            step = 2 if width == "utf-16-le" else 4
            return [int.from_bytes(units[i:i + step], "little") for i in range(0, len(units), step)]
        return value
    if kind in ("sequence", "array", "set"):
        element = node[kind]
        if isinstance(value, numpy.ndarray) and value.dtype.names:  # records, structured
            items = [value[i] for i in range(len(value))]
        else:
            items = list(value.tolist() if isinstance(value, numpy.ndarray) else value)
        exp = expected if isinstance(expected, list) else [None] * len(items)
        if kind == "set":
            out = _sorted(again(element, v, None) for v in items)
            return out
        return [again(element, v, e) for v, e in zip(items, exp + [None] * (len(items) - len(exp)))]
    if kind == "map":
        key, mapped = node["map"]
        pairs = list(value.items()) if isinstance(value, dict) else list(value)
        if key == "string":
            return {k: again(mapped, v, (expected or {}).get(k)) for k, v in pairs}
        return [[again(key, k, None), again(mapped, v, None)] for k, v in pairs]
    if kind == "tuple":
        return [again(sub, v, None) for sub, v in zip(node["tuple"], value)]
    if kind == "optional":
        return None if value is None else again(node["optional"], value, expected)
    if kind == "variant":
        return [value.index, again(node["variant"][value.index], value.value, None)]
    if kind == "bits":
        words = (node["bits"] + 63) // 64
        return [(value >> (64 * i)) & (2**64 - 1) for i in range(words)]
    if kind in ("duration", "time"):
        return again(node[kind], value, expected)
    if kind == "record":
        members = node["record"]
        if isinstance(value, numpy.ndarray):  # an array of bale/arrays, shaped
            layout = expected["layout"] if expected else "row_major"
            order = "F" if layout == "column_major" else "C"
            return {"layout": layout, "extents": list(value.shape),
                    "data": [_number(x) for x in value.ravel(order=order).tolist()]}
        if isinstance(value, numpy.void):  # an element of a structured array
            value = {name: value[name] for name in value.dtype.names}
        out = {}
        for m in members:
            if m["name"] in value:
                e = expected.get(m["name"]) if isinstance(expected, dict) else None
                out[m["name"]] = again(m["type"], value[m["name"]], e)
        return out
    raise AssertionError(f"no canonical form for {node}")


def inspect_sets_sorted(schema, value, records=None):
    """bale-inspect's value with every set's elements sorted as canonical() sorts them."""
    if records is None:
        records = records_of(schema)
    node = schema
    if isinstance(node, str) or value is None:
        return value
    if "ref" in node:
        return inspect_sets_sorted(records[node["ref"]], value, records)
    kind = next(iter(node))
    if kind == "set":
        return _sorted(inspect_sets_sorted(node["set"], v, records) for v in value)
    if kind in ("sequence", "array"):
        return [inspect_sets_sorted(node[kind], v, records) for v in value]
    if kind == "record" and isinstance(value, dict):
        types = {m["name"]: m["type"] for m in node["record"]}
        return {k: inspect_sets_sorted(types[k], v, records) if k in types else v
                for k, v in value.items()}
    if kind == "optional":
        return inspect_sets_sorted(node["optional"], value, records)
    return value
