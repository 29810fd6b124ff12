# verify: the independent table checker (verify/, `octad verify-tables`),
# run against tables made by `octad solve --max-pieces 4` (~1 s).
if(TARGET octad_verify AND TARGET octad)
  octad_add_unit_test(test_verify_tables LIBS octad_verify ARGS $<TARGET_FILE:octad> TIMEOUT 120)
endif()
