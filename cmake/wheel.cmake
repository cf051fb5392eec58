# Packaging of the two extension modules for a wheel (MAHOU_WHEEL=ON, set by `make wheel`):
# garbage-collected sections, only PyInit exported, and (MAHOU_BUNDLE_LIBS) the shared
# libraries they need copied into mahou/_libs, found through an $ORIGIN rpath.

option(MAHOU_WHEEL "Build the extension modules for a self-contained wheel" OFF)
option(MAHOU_BUNDLE_LIBS "Copy oneTBB (and libLLVM when linked shared) into mahou/_libs" OFF)

function(mahou_wheel_module target)
  if(NOT MAHOU_WHEEL)
    return()
  endif()
  # Only PyInit_<module> leaves the module: the LLVM and runtime symbols linked in
  # statically cannot clash with another LLVM in the process (llvmlite's, say).
  target_link_options(${target} PRIVATE
    -Wl,--gc-sections -Wl,--as-needed
    "-Wl,--version-script=${CMAKE_CURRENT_SOURCE_DIR}/cmake/python_module.map")
  if(MAHOU_BUNDLE_LIBS)
    # DT_RPATH (not RUNPATH) so that libLLVM's own dependencies (libz3) are found there too.
    target_link_options(${target} PRIVATE -Wl,--disable-new-dtags)
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN/_libs")
  endif()
endfunction()

# Installs the shared libraries the modules load from the LLVM and oneTBB directories
# (not the system's: libc, libstdc++, libz stay the machine's) into mahou/_libs.
function(mahou_bundle_libraries)
  if(NOT MAHOU_WHEEL OR NOT MAHOU_BUNDLE_LIBS)
    return()
  endif()
  set(dirs "${MAHOU_TBB_LIBDIR}")
  if(MAHOU_LLVM_LINK STREQUAL "shared")
    list(APPEND dirs "${MAHOU_LLVM_LIBDIR}")
  endif()
  set(include_regexes)
  foreach(d ${dirs})
    string(REGEX REPLACE "([][+.*()^$])" "\\\\\\1" escaped "${d}")
    list(APPEND include_regexes "^${escaped}/")
  endforeach()
  install(CODE "
    file(GET_RUNTIME_DEPENDENCIES
      LIBRARIES \"$<TARGET_FILE:_core>\" \"$<TARGET_FILE:_backend>\"
      DIRECTORIES ${dirs}
      RESOLVED_DEPENDENCIES_VAR deps
      UNRESOLVED_DEPENDENCIES_VAR missing
      PRE_EXCLUDE_REGEXES \"^ld-linux\" \"^libc\\\\.so\" \"^libm\\\\.so\" \"^libpython\"
      POST_INCLUDE_REGEXES ${include_regexes}
      POST_EXCLUDE_REGEXES \".*\")
    # Each under the name the modules ask for, as a file (a wheel holds no symlinks).
    foreach(dep \${deps})
      get_filename_component(name \"\${dep}\" NAME)
      file(REAL_PATH \"\${dep}\" real)
      message(STATUS \"mahou: bundling \${real} as mahou/_libs/\${name}\")
      file(INSTALL \"\${real}\" DESTINATION \"\${CMAKE_INSTALL_PREFIX}/mahou/_libs\" RENAME \"\${name}\")
    endforeach()
  ")
endfunction()
