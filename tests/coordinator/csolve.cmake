# csolve.cmake: `coordinator --solve` (OCTP/2) with real coordinator and worker processes over
# real sockets, tables up to 4 pieces, against `octad solve` (tests/test_csolve.py).
if(TARGET octad_xfer)
  octad_add_unit_test(test_xfer LIBS octad_xfer LABELS solve TIMEOUT 120)
endif()
if(TARGET octad_sdag)
  octad_add_unit_test(test_solve_dag LIBS octad_sdag LABELS solve)
endif()
if(TARGET coordinator AND TARGET worker AND TARGET octad)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    foreach(name usage exact position memory local_memory shared kill_worker kill_coordinator corrupt curve octp1 verify verify_fail bad_files)
      add_test(NAME test_csolve_${name}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test_csolve.py ${name}
                       --bin $<TARGET_FILE_DIR:coordinator> --octad $<TARGET_FILE:octad>)
      set_tests_properties(test_csolve_${name} PROPERTIES LABELS "cluster;solve" TIMEOUT 240)
    endforeach()
  endif()
endif()
