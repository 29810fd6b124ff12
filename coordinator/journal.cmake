# journal.cmake: the coordinator's crash-safe journal of finished tasks (library octad_journal).
# Included from coordinator/CMakeLists.txt, or by tests/coordinator/CMakeLists.txt when that is absent.
add_library(octad_journal STATIC
  ${CMAKE_CURRENT_LIST_DIR}/journal.c
  ${CMAKE_CURRENT_LIST_DIR}/journal_line.c)
target_include_directories(octad_journal PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(octad_journal PUBLIC core_base octad_jfile)
