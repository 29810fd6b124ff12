# proto: OCTP codec (round trips, malformed input, random bytes) and ZeroMQ wire helpers.
if(TARGET octad_proto)
  foreach(t test_proto_codec test_proto_malformed test_proto_random test_proto_wire)
    octad_add_unit_test(${t} LIBS octad_proto TIMEOUT 120)
    target_sources(${t} PRIVATE ${PROJECT_SOURCE_DIR}/proto/fuzz/msg_samples.c)
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/proto ${PROJECT_SOURCE_DIR}/proto/fuzz)
  endforeach()
endif()
