# hostile.cmake: the cluster against hostile peers and hostile files (issue 9): a hostile OCTP
# worker (test_hostile_peer.c), a raw ZMTP peer that sends one 8 GiB frame (test_hostile_zmtp.c),
# and real coordinator + worker processes driven by tests/test_hostile.py, one ctest per attack.
if(TARGET coordinator AND TARGET worker AND TARGET octad)
  add_executable(test_hostile_peer test_hostile_peer.c)
  target_link_libraries(test_hostile_peer PRIVATE octad_core octad_proto octad_curve)
  add_executable(test_hostile_zmtp test_hostile_zmtp.c)

  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    # case|labels|timeout (s); each quick case runs well under 60 s
    set(_hostile_cases
      "journal_key|cluster:hostile|60"
      "verify_keys|cluster:hostile|90"
      "hijack|cluster:hostile|90"
      "local_socket|cluster:hostile|90"
      "verify_stall|cluster:hostile|60"
      "refuse|cluster:hostile|90"
      "plausible|cluster:hostile|90"
      "hello_flood|cluster:hostile|180"
      "name_flood|cluster:hostile|90"
      "big_frame|cluster:hostile|90"
      "key_leak|cluster:hostile|60"
      "log_inject|cluster:hostile|60"
      "one_write|cluster:hostile|120"
      "endpoints|cluster:hostile|120")
    foreach(c ${_hostile_cases})
      string(REPLACE "|" ";" f "${c}")
      list(GET f 0 name)
      list(GET f 1 labels)
      list(GET f 2 timeout)
      string(REPLACE ":" ";" labels "${labels}")
      add_test(NAME test_hostile_${name}
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/test_hostile.py ${name}
                       --bin $<TARGET_FILE_DIR:coordinator> --octad $<TARGET_FILE:octad>
                       --peer $<TARGET_FILE:test_hostile_peer> --zmtp $<TARGET_FILE:test_hostile_zmtp>)
      set_tests_properties(test_hostile_${name} PROPERTIES LABELS "${labels}" TIMEOUT ${timeout}
                           SKIP_RETURN_CODE 77)
    endforeach()
  endif()
endif()
