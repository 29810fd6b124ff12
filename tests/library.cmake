# library.cmake: liboctad as its users meet it (cmake/library.cmake, docs/library.md):
# the exported symbols are exactly the public API, and an install into a temporary
# folder (DESTDIR) gives working programs, man pages, headers, pkg-config file and
# CMake package; in Release builds the same for the Debian package (cpack -G DEB).
get_property(_octad_headers GLOBAL PROPERTY OCTAD_LIBRARY_HEADERS)
add_test(NAME test_library_symbols
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_library_symbols.sh
                 $<TARGET_FILE:liboctad_shared> ${_octad_headers})
set_tests_properties(test_library_symbols PROPERTIES LABELS install)

set(_octad_user_flags "")
if(OCTAD_SANITIZE)
  set(_octad_user_flags "-fsanitize=address,undefined -fno-omit-frame-pointer")
endif()
add_test(NAME test_install
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_install.sh ${PROJECT_BINARY_DIR}
                 ${CMAKE_CURRENT_LIST_DIR}/install --cflags "${_octad_user_flags}")
set_tests_properties(test_install PROPERTIES LABELS install TIMEOUT 120)

# The package holds the Release programs; a sanitizer build is not for packaging.
find_program(_octad_dpkg_deb dpkg-deb)
if(NOT OCTAD_SANITIZE AND _octad_dpkg_deb)
  add_test(NAME test_deb
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_install.sh ${PROJECT_BINARY_DIR}
                   ${CMAKE_CURRENT_LIST_DIR}/install --deb)
  set_tests_properties(test_deb PROPERTIES LABELS install TIMEOUT 180)
endif()
