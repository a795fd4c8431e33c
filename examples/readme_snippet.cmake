# SPDX-License-Identifier: BSL-1.0
# Fails unless the first ```cpp block of README.md is exactly EXAMPLE.
file(READ ${README} readme)
file(READ ${EXAMPLE} example)
# The example's licence line is the repository's, not part of what a reader copies.
string(REGEX REPLACE "^// SPDX-License-Identifier: [^\n]*\n" "" example "${example}")
string(FIND "${readme}" "```cpp\n" start)
if(start EQUAL -1)
  message(FATAL_ERROR "README.md has no cpp block")
endif()
math(EXPR start "${start} + 7")
string(SUBSTRING "${readme}" ${start} -1 rest)
string(FIND "${rest}" "```" stop)
string(SUBSTRING "${rest}" 0 ${stop} snippet)
if(NOT snippet STREQUAL example)
  message(FATAL_ERROR "README.md's quick start differs from ${EXAMPLE}")
endif()
