# solve: the octad tablebase generator (index, files, values), and the
# command's generation, crash-resume and refusal of bad tables.
if(TARGET octad_solve)
  octad_add_unit_test(test_solve LIBS octad_solve TIMEOUT 300)
  if(TARGET octad)
    add_test(NAME test_solve_cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_solve_cli.sh $<TARGET_FILE:octad>)
    set_tests_properties(test_solve_cli PROPERTIES LABELS cli TIMEOUT 300)
  endif()
endif()
if(TARGET octad_solve)
  octad_add_unit_test(test_answer LIBS octad_solve LABELS solve)
endif()
if(TARGET octad_solve)
  octad_add_unit_test(test_solve_count LIBS octad_solve LABELS solve)
endif()
# The dtz without the 25-move rule (core/solve/ep_exact.h: e.p. positions, units
# solved again) against the verifier's forward search; "six" (slow, a few
# minutes) makes the 6-piece tables, where some wins zero sooner without the rule.
if(TARGET octad_solve AND TARGET octad_verify AND TARGET octad)
  octad_add_unit_test(test_ep_exact LIBS octad_solve octad_verify ARGS $<TARGET_FILE:octad> LABELS solve TIMEOUT 300)
  octad_add_unit_test(test_ep_exact_six EXE test_ep_exact ARGS $<TARGET_FILE:octad> six LABELS slow TIMEOUT 3600)
endif()
