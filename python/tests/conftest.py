# SPDX-License-Identifier: BSL-1.0
"""Fixtures: the files the C++ writer writes, and bale-inspect's reading of a file."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _tool(variable, fallback):
    path = os.environ.get(variable)
    if path:
        return path
    candidate = ROOT / "build" / "dev" / fallback
    if candidate.exists():
        return str(candidate)
    pytest.skip(f"{variable} is not set (ctest sets it)")


@pytest.fixture(scope="session")
def written(tmp_path_factory):
    """The directory of files bale_python_writer wrote (python/tests/writer.cpp)."""
    out = tmp_path_factory.mktemp("written")
    subprocess.run([_tool("BALE_WRITE", "python/bale_python_writer"), str(out)], check=True)
    return out


@pytest.fixture(scope="session")
def golden():
    return pathlib.Path(os.environ.get("BALE_GOLDEN", ROOT / "tests" / "golden"))


@pytest.fixture(scope="session")
def inspect():
    """Runs bale-inspect on a file: (exit status, its JSON line or None, stderr)."""
    tool = _tool("BALE_INSPECT", "tools/bale-inspect/bale-inspect")

    def run(path, *arguments):
        done = subprocess.run([tool, *arguments, str(path)], capture_output=True, text=True)
        line = done.stdout.strip()
        return done.returncode, json.loads(line) if line else None, done.stderr

    return run
