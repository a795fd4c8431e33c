#!/usr/bin/env bash
# SPDX-License-Identifier: BSL-1.0
# Installs bale from a build tree into a scratch prefix and builds consumers against it three ways:
# find_package, add_subdirectory, pkg-config; then builds and runs one of the installed examples.
set -euo pipefail
source_dir=$1
build_dir=$2
cxx=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
test -x "$work/prefix/bin/bale-inspect"
# The licence travels with the package: its text, and in the pkg-config file.
cmp "$source_dir/LICENSE_1_0.txt" "$work/prefix/share/doc/bale/LICENSE_1_0.txt"
grep -q '^License: BSL-1.0$' "$work/prefix/share/pkgconfig/bale.pc"

# Installing from a fresh checkout needs no GoogleTest (nor anything else bale's tests use).
cmake -S "$source_dir" -B "$work/no_gtest" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON >/dev/null 2>&1
cmake --install "$work/no_gtest" --prefix "$work/no_gtest_prefix" >/dev/null
test -f "$work/no_gtest_prefix/include/bale/bale.hpp"

cmake -S "$source_dir/tests/package/consumer" -B "$work/find" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/find" >/dev/null
"$work/find/consumer"
"$work/find/strict_consumer"

cmake -S "$source_dir/tests/package/consumer" -B "$work/sub" -DCMAKE_CXX_COMPILER="$cxx" \
  -DBALE_CONSUMER_MODE=add_subdirectory -DBALE_SOURCE_DIR="$source_dir" >/dev/null
# The strict build is find_package's and pkg-config's to check; here the plain consumer is enough.
cmake --build "$work/sub" --target consumer >/dev/null
"$work/sub/consumer"
# A user of add_subdirectory must not get bale's tests or warnings.
if [ -d "$work/sub/bale/tests" ]; then echo "bale's tests leaked into a consumer build"; exit 1; fi

# pkg-config requires C++20 and leaves the standard to the user: a C++23 build stays C++23, and
# one without C++20 stops at bale's own message.
pc_cflags=$(PKG_CONFIG_PATH="$work/prefix/share/pkgconfig" pkg-config --cflags bale)
case " $pc_cflags " in *" -std="*) echo "bale.pc forces a standard: $pc_cflags"; exit 1 ;; esac
# shellcheck disable=SC2086  # the flags are words
"$cxx" -std=c++20 $pc_cflags "$source_dir/tests/package/consumer/main.cpp" -o "$work/pc_consumer"
if "$cxx" -std=c++2b -E -x c++ /dev/null >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  "$cxx" -std=c++2b $pc_cflags "$source_dir/tests/package/consumer/main.cpp" -o "$work/pc_consumer23"
  "$work/pc_consumer23"
fi
# shellcheck disable=SC2086
if "$cxx" -std=c++17 $pc_cflags -fsyntax-only "$source_dir/tests/package/consumer/main.cpp" 2>"$work/cxx17.err"; then
  echo "bale compiled as C++17"; exit 1
fi
grep -q "bale needs C++20" "$work/cxx17.err"
# shellcheck disable=SC2086
if "$cxx" -std=c++20 -fno-exceptions $pc_cflags -fsyntax-only "$source_dir/tests/package/consumer/main.cpp" 2>"$work/noexc.err"; then
  echo "bale compiled without exceptions"; exit 1
fi
grep -q "bale needs exceptions" "$work/noexc.err"
strict="-O2 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnull-dereference -Werror"
if "$cxx" --version | grep -q "Free Software Foundation"; then strict="$strict -Wuseless-cast"; fi
# shellcheck disable=SC2086  # the flags are words
"$cxx" -std=c++20 $pc_cflags $strict \
  "$source_dir/tests/package/consumer/strict.cpp" -o "$work/pc_strict"
"$work/pc_strict"
"$work/pc_consumer"
# The same strict build with libc++, where the compiler has it.
if "$cxx" -stdlib=libc++ -std=c++20 -x c++ -fsyntax-only - <<<'#include <vector>' 2>/dev/null; then
  # shellcheck disable=SC2086
  "$cxx" -stdlib=libc++ -std=c++20 $pc_cflags $strict \
    "$source_dir/tests/package/consumer/strict.cpp" -o "$work/pc_strict_libcxx"
  "$work/pc_strict_libcxx"
fi

# The installed examples configure against the installed package, and one of them builds and runs
# (the build tree has built and run them all from the sources).
cmake -S "$work/prefix/share/doc/bale/examples" -B "$work/examples" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/examples" --target bale_quick_start >/dev/null
"$work/examples/bale_quick_start" "$work/examples"
echo "package ok"
