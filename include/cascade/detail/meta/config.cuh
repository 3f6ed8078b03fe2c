// cascade/detail/meta/config.cuh: what every cascade header needs before anything else: C++20.
// Each header that includes no other of cascade's includes this one, so whichever header a program
// includes first, a compile without C++20 stops here with one line (the host preprocessor, which
// nvcc runs first, stops at #error) instead of a hundred errors from the first concept it meets.
#pragma once

#if (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) < 202002L
#error "cascade needs C++20: compile with -std=c++20 (nvcc's default is C++17; CMake: cuda_std_20, which cascade::cascade sets)"
#endif
