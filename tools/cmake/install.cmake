# tools/cmake/install.cmake: what `cmake --install` puts besides the programs (tools/cmake/programs.cmake)
# and the library (tools/cmake/library.cmake): the documents, and the Debian package (cpack -G DEB).
set(OCTAD_DOCDIR ${CMAKE_INSTALL_DATAROOTDIR}/doc/octad-cluster)
file(GLOB OCTAD_DESIGN_DOCS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/BENCHMARKS.md ${OCTAD_DESIGN_DOCS}
        ${PROJECT_SOURCE_DIR}/proto/PROTOCOL.md
        DESTINATION ${OCTAD_DOCDIR} COMPONENT programs)
install(FILES ${PROJECT_SOURCE_DIR}/proto/DESIGN.md RENAME proto-design.md
        DESTINATION ${OCTAD_DOCDIR} COMPONENT programs)
# The octad rules (RULES.md) are kept outside this repository, next to it.
set(OCTAD_RULES_MD ${PROJECT_SOURCE_DIR}/../shared/docs/RULES.md CACHE FILEPATH
    "The octad rules document installed with the docs (skipped if absent)")
if(EXISTS ${OCTAD_RULES_MD})
  install(FILES ${OCTAD_RULES_MD} DESTINATION ${OCTAD_DOCDIR} COMPONENT programs)
else()
  message(STATUS "octad: ${OCTAD_RULES_MD} not found; RULES.md is not installed")
endif()

# A real install (no DESTDIR) refreshes the dynamic linker's cache, so a program
# linked with -loctad runs at once; skipped quietly where that is not allowed.
install(CODE [[
  if("$ENV{DESTDIR}" STREQUAL "")
    find_program(OCTAD_LDCONFIG ldconfig PATHS /sbin /usr/sbin)
    if(OCTAD_LDCONFIG)
      execute_process(COMMAND ${OCTAD_LDCONFIG} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    endif()
  endif()
]] COMPONENT lib)

# cpack -G DEB (in the build folder): one package with everything, for /usr.
set(CPACK_PACKAGE_NAME octad-cluster)
set(CPACK_PACKAGE_VENDOR "octad-cluster")
set(CPACK_PACKAGE_CONTACT "octad-cluster developers <octad-cluster@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "exact perft for octad (4x4 chess), chess and Chess960, on one machine or a cluster")
set(CPACK_PACKAGE_DESCRIPTION
    "The octad command (perft, moves, show, validate, bench), the ZeroMQ perft cluster\n(coordinator, worker), the certificate checker (certcheck) and liboctad, the C library with its headers, pkg-config\nfile and CMake package.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_STRIP_FILES ON)
include(CPack)
