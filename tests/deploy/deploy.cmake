# deploy.cmake: the deployment story (deploy/, docs/deploy.md): the worker's bounded stop,
# the Docker build context, the compose file, the compose cluster run for real, and the
# Kubernetes example. Tests that need root, Docker or a tool that is missing skip (exit 77).
find_package(Python3 COMPONENTS Interpreter)

# A worker stopped after its coordinator is gone exits within the bounded wait (issue 13 item 5).
if(TARGET coordinator AND TARGET worker AND Python3_FOUND)
  add_test(NAME test_worker_stop
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/test_worker_stop.py --bin $<TARGET_FILE_DIR:worker>)
  set_tests_properties(test_worker_stop PROPERTIES LABELS "cluster;deploy" SKIP_RETURN_CODE 77 TIMEOUT 120)
endif()

# The compose file, validated offline (no Docker engine needed). Skips without docker-compose.
add_test(NAME test_compose_config
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_compose_config.sh ${CMAKE_CURRENT_LIST_DIR}/../deploy/compose.yml)
set_tests_properties(test_compose_config PROPERTIES LABELS deploy SKIP_RETURN_CODE 77)

# What enters the image build's context: no stray key, journal, build folder or .git (item 1).
if(Python3_FOUND)
  add_test(NAME test_dockerignore
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/test_dockerignore.py ${CMAKE_CURRENT_LIST_DIR}/..)
  set_tests_properties(test_dockerignore PROPERTIES LABELS deploy SKIP_RETURN_CODE 77 TIMEOUT 60)
endif()

# The Kubernetes example, offline: yamllint, kubectl kustomize, tests/k8s_check.py.
if(TARGET coordinator)
  add_test(NAME test_k8s
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_k8s.sh ${CMAKE_CURRENT_LIST_DIR}/../deploy/k8s $<TARGET_FILE:coordinator>)
  set_tests_properties(test_k8s PROPERTIES LABELS deploy SKIP_RETURN_CODE 77 TIMEOUT 60)
endif()

# The compose cluster for real (deploy/compose-test.sh): builds the image (minutes: it
# compiles and runs the quick suite), 3 workers, a coordinator killed and resumed. Needs root
# and a Docker daemon it can start; skips (77) with the reason otherwise. Label `slow`.
add_test(NAME test_compose_cluster COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/../deploy/compose-test.sh)
set_tests_properties(test_compose_cluster PROPERTIES
  LABELS "deploy;slow" SKIP_RETURN_CODE 77 TIMEOUT 2400 RUN_SERIAL TRUE)

# ...and where no daemon can run, it skips with the reason (stand-ins for docker and dockerd).
add_test(NAME test_compose_skip
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_compose_skip.sh ${CMAKE_CURRENT_LIST_DIR}/../deploy/compose-test.sh)
set_tests_properties(test_compose_skip PROPERTIES LABELS deploy SKIP_RETURN_CODE 77 TIMEOUT 60)
