# tools/cmake/library.cmake: liboctad, the installed C library (docs/library.md).
#
# The library is made of "parts": the folders' own static libraries (octad_rules,
# chess_rules, core_base, octad_core, ...), which the programs and the tests keep
# linking as before. A folder adds its part, and the public headers that go with
# it, with one line after its add_library(NAME STATIC ...):
#   octad_library_part(NAME [HEADERS h...] [SUBDIR dir])
# HEADERS (relative to the folder) install into include/octad/[SUBDIR/]; every
# function they declare must carry OCTAD_API (core/base/api.h), and no other function
# is exported (tests/deploy/CMakeLists.txt checks both ways).
# octad_library() (called once, at the end of the top-level CMakeLists.txt) then
# builds liboctad.so and liboctad.a from the parts' objects, with the pkg-config
# file and the CMake package (find_package(octad): octad::octad, octad::octad_static).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

function(octad_library_part target)
  cmake_parse_arguments(P "" "SUBDIR" "HEADERS" ${ARGN})
  # PIC so the same objects serve the shared library; hidden so only OCTAD_API is
  # exported; no semantic interposition so exported functions optimise as before.
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON
                        C_VISIBILITY_PRESET hidden)
  target_compile_options(${target} PRIVATE -fno-semantic-interposition)
  set_property(GLOBAL APPEND PROPERTY OCTAD_LIBRARY_PARTS ${target})
  octad_public_headers(SUBDIR "${P_SUBDIR}" HEADERS ${P_HEADERS})
endfunction()

# octad_public_headers([SUBDIR dir] HEADERS h...): installs headers into include/octad/[SUBDIR/]
# and lists them for the tests (tests/deploy: each compiles alone, exports match OCTAD_API).
function(octad_public_headers)
  cmake_parse_arguments(P "" "SUBDIR" "HEADERS" ${ARGN})
  set(dest ${CMAKE_INSTALL_INCLUDEDIR}/octad)
  if(P_SUBDIR)
    string(APPEND dest /${P_SUBDIR})
  endif()
  foreach(h ${P_HEADERS})
    get_filename_component(abs ${h} ABSOLUTE)
    set_property(GLOBAL APPEND PROPERTY OCTAD_LIBRARY_HEADERS ${abs})
    install(FILES ${abs} DESTINATION ${dest} COMPONENT dev)
  endforeach()
endfunction()

function(octad_library)
  get_property(parts GLOBAL PROPERTY OCTAD_LIBRARY_PARTS)
  set(objects "")
  foreach(p ${parts})
    list(APPEND objects $<TARGET_OBJECTS:${p}>)
  endforeach()
  # Target names: `octad` is the command; both files are called liboctad.*.
  add_library(liboctad_shared SHARED ${objects})
  add_library(liboctad_static STATIC ${objects})
  foreach(t liboctad_shared liboctad_static)
    set_target_properties(${t} PROPERTIES OUTPUT_NAME octad
                          LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
                          ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)
    target_link_libraries(${t} PUBLIC Threads::Threads ${ZSTD_LIBRARY})
    target_include_directories(${t} INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  endforeach()
  set_target_properties(liboctad_shared PROPERTIES VERSION ${PROJECT_VERSION}
                        SOVERSION ${PROJECT_VERSION_MAJOR} EXPORT_NAME octad)
  set_target_properties(liboctad_static PROPERTIES EXPORT_NAME octad_static)
  if(NOT OCTAD_SANITIZE)
    target_link_options(liboctad_shared PRIVATE -Wl,--no-undefined)
  endif()

  install(TARGETS liboctad_shared liboctad_static EXPORT octadTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
  set(cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/octad)
  install(EXPORT octadTargets NAMESPACE octad:: DESTINATION ${cmakedir} COMPONENT dev)
  configure_package_config_file(${PROJECT_SOURCE_DIR}/tools/cmake/octadConfig.cmake.in
    ${PROJECT_BINARY_DIR}/octadConfig.cmake INSTALL_DESTINATION ${cmakedir})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/octadConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/octadConfig.cmake ${PROJECT_BINARY_DIR}/octadConfigVersion.cmake
          DESTINATION ${cmakedir} COMPONENT dev)

  # octad.pc is written at install time, so its prefix is the one installed to
  # (cmake --install --prefix, cpack's /usr), not the one configured.
  install(CODE "
    set(OCTAD_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    set(CMAKE_INSTALL_LIBDIR ${CMAKE_INSTALL_LIBDIR})
    set(CMAKE_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
    set(PROJECT_VERSION ${PROJECT_VERSION})
    set(pc \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/octad.pc\")
    message(STATUS \"Installing: \${pc}\")
    configure_file(${PROJECT_SOURCE_DIR}/tools/cmake/octad.pc.in \${pc} @ONLY)
    list(APPEND CMAKE_INSTALL_MANIFEST_FILES \${pc})" COMPONENT dev)
endfunction()
