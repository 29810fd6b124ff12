# canalyse.cmake: `coordinator --analyse` (OCTP/3) with real coordinator and worker processes over
# real sockets, against `octad search --split` in one process (tests/test_canalyse.py).
if(TARGET coordinator AND TARGET worker AND TARGET octad)
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    foreach(name usage exact kill_worker kill_coordinator verify octp2 curve)
      add_test(NAME test_canalyse_${name}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test_canalyse.py ${name}
                       --bin $<TARGET_FILE_DIR:coordinator> --octad $<TARGET_FILE:octad>)
      set_tests_properties(test_canalyse_${name} PROPERTIES LABELS "cluster;engine" TIMEOUT 120)
    endforeach()
  endif()
endif()
