# SPDX-License-Identifier: BSL-1.0
# Finds liblz4 and libzstd and defines bale::lz4 and bale::zstd: link one to compile that codec into
# bale::compress / bale::decompress / bale::save_file. Used by bale's own build and by the installed
# package config, so both find the codecs the same way.
foreach(codec lz4 zstd)
  string(TOUPPER ${codec} CODEC)
  if(BALE_WITH_${CODEC} AND NOT TARGET bale::${codec})
    find_path(BALE_${CODEC}_INCLUDE_DIR ${codec}.h)
    find_library(BALE_${CODEC}_LIBRARY ${codec})
    if(BALE_${CODEC}_INCLUDE_DIR AND BALE_${CODEC}_LIBRARY)
      add_library(bale::${codec} INTERFACE IMPORTED)
      set_target_properties(bale::${codec} PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${BALE_${CODEC}_INCLUDE_DIR}"
        INTERFACE_LINK_LIBRARIES "bale::bale;${BALE_${CODEC}_LIBRARY}"
        INTERFACE_COMPILE_DEFINITIONS BALE_WITH_${CODEC}=1)
    endif()
  endif()
endforeach()
