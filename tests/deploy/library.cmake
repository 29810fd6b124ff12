# library.cmake: liboctad as its users meet it (cmake/library.cmake, docs/library.md):
# the exported symbols are exactly the public API, and an install into a temporary
# folder (DESTDIR) gives working programs, man pages, headers, pkg-config file and
# CMake package, and the same for the Debian package (cpack -G DEB), in Release builds.
get_property(_octad_headers GLOBAL PROPERTY OCTAD_LIBRARY_HEADERS)
add_test(NAME test_library_symbols
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_library_symbols.sh
                 $<TARGET_FILE:liboctad_shared> ${_octad_headers})
set_tests_properties(test_library_symbols PROPERTIES LABELS install)

# The install and the package hold the Release programs; the sanitizer build
# checks the library code through the unit tests instead.
if(NOT OCTAD_SANITIZE)
  add_test(NAME test_install
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_install.sh ${PROJECT_BINARY_DIR}
                   ${CMAKE_CURRENT_LIST_DIR}/install)
  set_tests_properties(test_install PROPERTIES LABELS install TIMEOUT 300)
  find_program(_octad_dpkg_deb dpkg-deb)
  if(_octad_dpkg_deb)
    add_test(NAME test_deb
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_install.sh ${PROJECT_BINARY_DIR}
                     ${CMAKE_CURRENT_LIST_DIR}/install --deb)
    set_tests_properties(test_deb PROPERTIES LABELS install TIMEOUT 300 SKIP_RETURN_CODE 77)
    # The package on a fresh Debian 12 (debootstrap + apt from Debian's mirror).
    add_test(NAME test_deb_chroot
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_deb_chroot.sh ${PROJECT_BINARY_DIR})
    set_tests_properties(test_deb_chroot PROPERTIES LABELS "install;slow" TIMEOUT 1800
                         SKIP_RETURN_CODE 77 RUN_SERIAL TRUE)
  endif()
endif()
