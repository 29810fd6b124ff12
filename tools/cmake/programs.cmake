# tools/cmake/programs.cmake: the installed programs. Every program builds into
# build/bin and installs into bin/; its man page is docs/man/NAME.1 (kept in sync with
# its --help by tests/cli/CMakeLists.txt). A folder declares its program with one line,
# after its add_executable():
#   octad_program(NAME)
include(GNUInstallDirs)

function(octad_program target)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
  install(TARGETS ${target} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT programs)
  set(page ${PROJECT_SOURCE_DIR}/docs/man/${target}.1)
  if(EXISTS ${page})
    install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT programs)
  endif()
  set_property(GLOBAL APPEND PROPERTY OCTAD_PROGRAMS ${target})
endfunction()

# octad_embed_page(TARGET PAGE NAME): the file PAGE (a page a program serves) becomes the bytes
# `const unsigned char NAME[]` and `NAME_len` (tools/cmake/embed.cmake), declared in NAME.h
# beside PAGE, compiled into TARGET.
function(octad_embed_page target page name)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}.c)
  add_custom_command(OUTPUT ${out}
                     COMMAND ${CMAKE_COMMAND} -DIN=${page} -DOUT=${out} -DNAME=${name} -DHEADER=${name}.h
                             -P ${PROJECT_SOURCE_DIR}/tools/cmake/embed.cmake
                     DEPENDS ${page} ${PROJECT_SOURCE_DIR}/tools/cmake/embed.cmake
                     COMMENT "Embedding ${name}")
  target_sources(${target} PRIVATE ${out})
endfunction()
