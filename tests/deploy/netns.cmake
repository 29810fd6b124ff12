# netns.cmake: the cluster as separate hosts in Linux network namespaces (deploy/netns-cluster.sh).
# Needs root; skips (exit 77) otherwise. Label `cluster`.
if(TARGET coordinator AND TARGET worker AND TARGET octad)
  foreach(mode plain curve solve)
    add_test(NAME netns_cluster_${mode}
      COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_netns_cluster.sh $<TARGET_FILE_DIR:coordinator>
              $<TARGET_FILE:octad> ${CMAKE_CURRENT_LIST_DIR}/../deploy/netns-cluster.sh ${mode})
    set_tests_properties(netns_cluster_${mode} PROPERTIES
      LABELS cluster SKIP_RETURN_CODE 77 TIMEOUT 900 RUN_SERIAL TRUE)
  endforeach()
endif()
