# SPDX-License-Identifier: BSL-1.0
# Compiles SOURCE, which must not compile, and checks that the compiler's first error line holds
# the text after "// first error: " in SOURCE: bale's own message, not a page of candidates; and
# that the compiler's output names what each "// names: " line gives (the user's type, say). With
# "// only error", no other error follows it.
file(STRINGS ${SOURCE} expected REGEX "^// first error: ")
list(GET expected 0 expected)
string(REPLACE "// first error: " "" expected "${expected}")
execute_process(
  COMMAND ${COMPILER} -std=c++20 -fsyntax-only -I${INCLUDE} ${SOURCE}
  RESULT_VARIABLE status
  OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
if(status EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled; it must not")
endif()
string(REGEX MATCH "error: [^\n]*" first "${output}")
string(FIND "${first}" "${expected}" where)
if(where EQUAL -1)
  message(FATAL_ERROR "first error of ${SOURCE}:\n  ${first}\ndoes not say:\n  ${expected}")
endif()
file(STRINGS ${SOURCE} names REGEX "^// names: ")
foreach(name IN LISTS names)
  string(REPLACE "// names: " "" name "${name}")
  string(FIND "${output}" "${name}" where)
  if(where EQUAL -1)
    message(FATAL_ERROR "the compiler's output for ${SOURCE} does not name ${name}")
  endif()
endforeach()
file(STRINGS ${SOURCE} only REGEX "^// only error")
if(only)
  string(REGEX MATCHALL "error: " errors "${output}")
  list(LENGTH errors count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "${SOURCE} gives ${count} errors; it must give one:\n${output}")
  endif()
endif()
