# curve.cmake: unit tests of CURVE key files and the ZAP allow-list (proto/curve.c, proto/curve_auth.c).
if(NOT TARGET octad_curve)
  include(${CMAKE_CURRENT_LIST_DIR}/../proto/curve.cmake)
endif()
octad_add_unit_test(test_curve LIBS octad_curve TIMEOUT 60)
