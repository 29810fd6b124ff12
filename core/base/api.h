/* api.h: OCTAD_API marks the functions liboctad exports (everything else is built
 * with -fvisibility=hidden). Every function declared in an installed header
 * (include/octad/, see docs/library.md) carries it; tests/deploy/CMakeLists.txt checks. */
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define OCTAD_API __attribute__((visibility("default")))
#else
#define OCTAD_API
#endif
