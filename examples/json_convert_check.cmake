# SPDX-License-Identifier: BSL-1.0
# The converter end to end: JSON -> bytes -> JSON gives back the same text in both byte formats,
# and a broken input fails with its position. Run with -DTOOL=... -DDATA=... -DWORK=...
foreach(format binary compact)
  set(flag "")
  if(format STREQUAL "compact")
    set(flag --compact)
  endif()
  execute_process(COMMAND ${TOOL} to-binary assembly ${flag} ${DATA}/assembly.json
                          ${WORK}/assembly.${format}
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "to-binary ${flag} failed: ${status}")
  endif()
  execute_process(COMMAND ${TOOL} to-json assembly ${flag} --pretty ${WORK}/assembly.${format}
                  OUTPUT_VARIABLE text RESULT_VARIABLE status)
  file(READ ${DATA}/assembly.json expected)
  if(NOT status EQUAL 0 OR NOT text STREQUAL expected)
    message(FATAL_ERROR "to-json ${flag} gave (${status}):\n${text}")
  endif()
endforeach()

file(READ ${DATA}/assembly.json text)
string(REPLACE "\"glass\"" "\"glas\"" broken "${text}")
file(WRITE ${WORK}/broken.json "${broken}")
execute_process(COMMAND ${TOOL} to-binary assembly ${WORK}/broken.json ${WORK}/broken.bin
                ERROR_VARIABLE message RESULT_VARIABLE status)
if(status EQUAL 0 OR NOT message MATCHES "line [0-9]+, column [0-9]+: \"glas\" is not a listed name")
  message(FATAL_ERROR "a broken input was not reported (${status}): ${message}")
endif()
execute_process(COMMAND ${TOOL} to-json nothing ${WORK}/assembly.binary
                ERROR_VARIABLE message RESULT_VARIABLE status)
if(status EQUAL 0 OR NOT message MATCHES "no type named \"nothing\"")
  message(FATAL_ERROR "an unknown type was not reported (${status}): ${message}")
endif()
