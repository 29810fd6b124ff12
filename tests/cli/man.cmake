# man.cmake: every program declared with octad_program() (cmake/programs.cmake) has a
# man page man/NAME.1 that renders and describes exactly the options of its --help.
get_property(_octad_programs GLOBAL PROPERTY OCTAD_PROGRAMS)
foreach(p ${_octad_programs})
  add_test(NAME test_man_${p}
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_man.sh $<TARGET_FILE:${p}>
                   ${PROJECT_SOURCE_DIR}/man/${p}.1)
  set_tests_properties(test_man_${p} PROPERTIES LABELS man)
endforeach()
