# cluster.cmake: the perft cluster's tests: the scheduler, the worker's HELLO and its perft TASKs as
# cmocka unit tests, and real coordinator + worker processes over real sockets (tests/test_cluster.py).
if(TARGET coordinator AND TARGET worker)
  octad_add_unit_test(test_cluster_sched LIBS octad_sched LABELS cluster)
  # The worker's HELLO and version negotiation on its own: worker/whello.c.
  octad_add_unit_test(test_worker_hello LIBS octad_proto_codec octad_core LABELS cluster)
  target_sources(test_worker_hello PRIVATE ${PROJECT_SOURCE_DIR}/worker/whello.c)
  target_include_directories(test_worker_hello PRIVATE ${PROJECT_SOURCE_DIR}/worker)
  # The worker's perft TASKs on their own (refusals, the RESULT): worker/wperft.c and its compute pool.
  octad_add_unit_test(test_worker_perft LIBS octad_engine octad_proto_codec Threads::Threads LABELS cluster)
  target_sources(test_worker_perft PRIVATE ${PROJECT_SOURCE_DIR}/worker/wperft.c ${PROJECT_SOURCE_DIR}/worker/compute.c
                 ${PROJECT_SOURCE_DIR}/worker/wanalyse.c)
  target_include_directories(test_worker_perft PRIVATE ${PROJECT_SOURCE_DIR}/worker)

  add_executable(test_cluster_noise test_cluster_noise.c)
  target_link_libraries(test_cluster_noise PRIVATE octad_proto)

  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    set(_octad_cli "")
    if(TARGET octad)
      set(_octad_cli $<TARGET_FILE:octad>)
    endif()
    # case, labels, timeout (s)
    set(_cluster_cases
      "exact|cluster|120"
      "usage|cluster|60"
      "noise|cluster|120"
      "kill_worker|cluster|180"
      "stop_worker|cluster|180"
      "kill_coordinator|cluster|240"
      "verify|cluster|120"
      "curve|cluster|120")
    foreach(c ${_cluster_cases})
      string(REPLACE "|" ";" f "${c}")
      list(GET f 0 name)
      list(GET f 1 labels)
      list(GET f 2 timeout)
      add_test(NAME test_cluster_${name}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test_cluster.py ${name}
                       --bin $<TARGET_FILE_DIR:coordinator> --octad "${_octad_cli}"
                       --noise $<TARGET_FILE:test_cluster_noise>)
      set_tests_properties(test_cluster_${name} PROPERTIES LABELS "${labels}" TIMEOUT ${timeout}
                           ENVIRONMENT "OCTAD_TEST_DATA=${OCTAD_TEST_DATA}")
    endforeach()
  endif()
endif()
