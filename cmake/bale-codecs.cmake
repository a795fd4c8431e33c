# Finds liblz4 and libzstd and defines bale::lz4 and bale::zstd: link one to compile that codec into
# bale::compress / bale::decompress / bale::save_file. Used by bale's own build and by the installed
# package config, so both find the codecs the same way.
if(BALE_WITH_LZ4 AND NOT TARGET bale::lz4)
  find_path(BALE_LZ4_INCLUDE_DIR lz4.h)
  find_library(BALE_LZ4_LIBRARY lz4)
  if(BALE_LZ4_INCLUDE_DIR AND BALE_LZ4_LIBRARY)
    add_library(bale::lz4 INTERFACE IMPORTED)
    set_target_properties(bale::lz4 PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${BALE_LZ4_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "bale::bale;${BALE_LZ4_LIBRARY}"
      INTERFACE_COMPILE_DEFINITIONS BALE_WITH_LZ4=1)
  endif()
endif()
if(BALE_WITH_ZSTD AND NOT TARGET bale::zstd)
  find_path(BALE_ZSTD_INCLUDE_DIR zstd.h)
  find_library(BALE_ZSTD_LIBRARY zstd)
  if(BALE_ZSTD_INCLUDE_DIR AND BALE_ZSTD_LIBRARY)
    add_library(bale::zstd INTERFACE IMPORTED)
    set_target_properties(bale::zstd PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${BALE_ZSTD_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "bale::bale;${BALE_ZSTD_LIBRARY}"
      INTERFACE_COMPILE_DEFINITIONS BALE_WITH_ZSTD=1)
  endif()
endif()
