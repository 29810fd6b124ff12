# embed.cmake: writes a file's bytes as a C array (for pages a program serves from its binary).
#   cmake -DIN=page.html -DOUT=page.c -DNAME=symbol -DHEADER=page.h -P embed.cmake
# OUT defines `const unsigned char NAME[]` (the bytes and a NUL) and `const size_t NAME_len`,
# declared in HEADER.
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n" bytes "${bytes}")
get_filename_component(src "${IN}" NAME)
file(WRITE "${OUT}" "/* ${NAME}: generated from ${src} by tools/cmake/embed.cmake; do not edit. */\n"
     "#include \"${HEADER}\"\n\nconst unsigned char ${NAME}[] = {\n${bytes}0x00};\n"
     "const size_t ${NAME}_len = sizeof ${NAME} - 1;\n")
