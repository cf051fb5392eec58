# How mahou links LLVM: MAHOU_LLVM_LINK=shared (the `LLVM` target, libLLVM.so) or static
# (the component libraries mahou uses, for a wheel that carries LLVM). Sets MAHOU_LLVM_LIBS.

# The components the back end calls: the optimisation pipeline (passes), the CPU JIT
# (orcjit, x86), PTX (nvptx), reading libdevice (bitreader, linker) and the cache's objects.
set(MAHOU_LLVM_COMPONENTS
  core support passes orcjit jitlink executionengine linker irreader bitreader bitwriter
  object mc target targetparser analysis transformutils
  x86codegen x86asmparser x86desc x86info
  nvptxcodegen nvptxdesc nvptxinfo)

if(MAHOU_LLVM_LINK STREQUAL "shared")
  if(NOT TARGET LLVM)
    message(FATAL_ERROR "LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_DIR} has no shared `LLVM` target "
                        "(configure with -DMAHOU_LLVM_LINK=static to use the component libraries)")
  endif()
  set(MAHOU_LLVM_LIBS LLVM)
elseif(MAHOU_LLVM_LINK STREQUAL "static")
  llvm_map_components_to_libnames(MAHOU_LLVM_LIBS ${MAHOU_LLVM_COMPONENTS})
  # LLVMSupport names zstd's CMake target, which only libzstd-dev defines; the runtime
  # library (libzstd1, on every Debian) is enough to link (--as-needed drops it if unused).
  if(NOT TARGET zstd::libzstd_shared)
    find_library(MAHOU_ZSTD_LIBRARY NAMES zstd libzstd.so.1)
    if(MAHOU_ZSTD_LIBRARY)
      add_library(zstd::libzstd_shared SHARED IMPORTED)
      set_target_properties(zstd::libzstd_shared PROPERTIES IMPORTED_LOCATION "${MAHOU_ZSTD_LIBRARY}")
    else()
      message(FATAL_ERROR "MAHOU_LLVM_LINK=static: LLVM's Support library needs libzstd: apt-get install libzstd-dev")
    endif()
  endif()
  # Debian's llvm-19-dev declares every component target even where a library file is
  # missing; say which package brings them rather than failing at link time.
  foreach(lib ${MAHOU_LLVM_LIBS})
    set(_file "")
    if(TARGET ${lib})
      get_target_property(_file ${lib} IMPORTED_LOCATION_RELEASE)
      if(NOT _file)
        get_target_property(_file ${lib} IMPORTED_LOCATION_RELWITHDEBINFO)
      endif()
      if(NOT _file)
        get_target_property(_file ${lib} IMPORTED_LOCATION)
      endif()
    endif()
    if(NOT _file OR NOT EXISTS "${_file}")
      message(FATAL_ERROR "MAHOU_LLVM_LINK=static needs LLVM's static library ${lib} "
                          "(lib${lib}.a in ${LLVM_LIBRARY_DIR}), which is missing: on Debian or Ubuntu "
                          "install llvm-19-dev (apt-get install llvm-19-dev), or point LLVM_DIR at an LLVM 19 "
                          "build with static libraries.")
    endif()
  endforeach()
  # Only the file that reports it (mahou -s) needs to know: other objects stay the same
  # as a development build's, so ccache reuses them.
  set_source_files_properties("${CMAKE_CURRENT_SOURCE_DIR}/cpp/lib/backend_table.cpp"
                              PROPERTIES COMPILE_DEFINITIONS MAHOU_LLVM_STATIC)
else()
  message(FATAL_ERROR "MAHOU_LLVM_LINK is '${MAHOU_LLVM_LINK}': shared or static")
endif()
