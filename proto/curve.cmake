# curve.cmake: CURVE security for OCTP sockets (library octad_curve): key files, socket setup, ZAP allow-list.
# Included from proto/CMakeLists.txt (which finds LIBZMQ); finds it itself when included alone.
if(NOT TARGET PkgConfig::LIBZMQ)
  pkg_check_modules(LIBZMQ REQUIRED IMPORTED_TARGET libzmq)
endif()
add_library(octad_curve STATIC
  ${CMAKE_CURRENT_LIST_DIR}/curve.c
  ${CMAKE_CURRENT_LIST_DIR}/curve_auth.c)
target_include_directories(octad_curve PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(octad_curve PUBLIC core_base PkgConfig::LIBZMQ Threads::Threads)
