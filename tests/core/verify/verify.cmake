# verify: the independent table checker (verify/, `octad verify-tables`),
# run against tables made by `octad solve --max-pieces 4` (~1-2 s).
if(TARGET octad_verify AND TARGET octad)
  add_library(verify_fixup STATIC verify_fixup.c)
  target_link_libraries(verify_fixup PUBLIC octad_verify)
  octad_add_unit_test(test_verify_tables LIBS verify_fixup ARGS $<TARGET_FILE:octad> TIMEOUT 120)
  octad_add_unit_test(test_verify_forward LIBS verify_fixup ARGS $<TARGET_FILE:octad> TIMEOUT 180)
  octad_add_unit_test(test_verify_forward_all EXE test_verify_forward ARGS $<TARGET_FILE:octad> all
                      LABELS slow TIMEOUT 3600)
  octad_add_unit_test(test_verify_forward_five EXE test_verify_forward ARGS $<TARGET_FILE:octad> five
                      LABELS slow TIMEOUT 3600)
endif()
# The generator's tables keep the board's symmetries (mirror, colour flip):
# named in docs/solver.md; uses solve/'s public probe API on purpose.
if(TARGET octad_solve AND TARGET octad)
  octad_add_unit_test(test_solve_sym LIBS octad_solve ARGS $<TARGET_FILE:octad> TIMEOUT 120)
endif()
