// TESSERA_CHECK: aborts with file:line when an internal invariant breaks (never for bad input).
#pragma once

#include <cstdio>
#include <cstdlib>

#define TESSERA_CHECK(cond)                                                                  \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::fprintf(stderr, "%s:%d: internal check failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                          \
    }                                                                                        \
  } while (0)
