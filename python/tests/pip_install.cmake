# SPDX-License-Identifier: BSL-1.0
# pip install --no-build-isolation of python/ (docs/python.md), into a directory of its own, then
# an import from there that reads a file.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/tree)
file(COPY ${SOURCE}/include ${SOURCE}/python DESTINATION ${WORK}/tree
     PATTERN build EXCLUDE PATTERN __pycache__ EXCLUDE)
execute_process(COMMAND ${PYTHON} -m pip install --quiet --no-build-isolation --no-deps
                        --target ${WORK}/site ${WORK}/tree/python
                RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "pip install failed: ${status}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${WORK}/site ${PYTHON} -c
                        "import bale, sys; assert bale.__file__.startswith(sys.argv[1]); print(bale.decode(b'\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01\\x00\\x02\\x00', '{\"sequence\":\"i16\"}').tolist())"
                        ${WORK}/site
                OUTPUT_VARIABLE printed RESULT_VARIABLE status)
if(NOT status EQUAL 0 OR NOT printed STREQUAL "[1, 2]\n")
  message(FATAL_ERROR "the installed package does not read: ${status} ${printed}")
endif()
