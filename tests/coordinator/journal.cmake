# journal.cmake: unit tests of the coordinator's journal (coordinator/journal.c).
if(NOT TARGET octad_journal)
  include(${CMAKE_CURRENT_LIST_DIR}/../coordinator/journal.cmake)
endif()
octad_add_unit_test(test_journal LIBS octad_journal)
