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
# The worker's ANALYSE handling on its own (refusals, the answer): worker/wanalyse.c and its compute pool.
if(TARGET worker AND TARGET octad_engine)
  octad_add_unit_test(test_worker_analyse LIBS octad_engine octad_proto_codec Threads::Threads LABELS cluster engine)
  target_sources(test_worker_analyse PRIVATE ${PROJECT_SOURCE_DIR}/worker/wanalyse.c ${PROJECT_SOURCE_DIR}/worker/compute.c)
  target_include_directories(test_worker_analyse PRIVATE ${PROJECT_SOURCE_DIR}/worker)
endif()
