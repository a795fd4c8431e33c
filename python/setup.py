# SPDX-License-Identifier: BSL-1.0
"""Builds bale._core from bale's headers (../include): pip install --no-build-isolation ./python"""

import os
import pathlib
import re
import shutil
import sysconfig

from setuptools import Extension, setup

here = pathlib.Path(__file__).resolve().parent
include = here.parent / "include"
release = (include / "bale" / "release.hpp").read_text()
version = ".".join(re.search(rf"#define BALE_VERSION_{part} (\d+)", release).group(1)
                   for part in ("MAJOR", "MINOR", "PATCH"))


def pybind11_include():
    try:
        import pybind11
        return pybind11.get_include()
    except ImportError:  # Debian's pybind11-dev: the headers alone, in /usr/include
        return "/usr/include"


codecs = {"lz4": "BALE_WITH_LZ4", "zstd": "BALE_WITH_ZSTD"}
found = [c for c in codecs if os.path.exists(f"/usr/include/{c}.h")]
core = Extension(
    "bale._core",
    sources=["src/core.cpp"],
    include_dirs=[str(include), pybind11_include(), "src"],
    define_macros=[(codecs[c], "1") for c in found],
    libraries=found,
    extra_compile_args=["-std=c++20", "-O2", "-fvisibility=hidden"],
    language="c++",
)

setup(version=version, packages=["bale"], ext_modules=[core])
