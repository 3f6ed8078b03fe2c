// cascade/version.cuh: the version of these headers, in CUB's form (CUB_VERSION 300500 is 3.5.0):
//
//   #if CASCADE_VERSION >= 100   // 0.1.0 or later
//
// The same as meson.build's project version, which the CMake package and cascade.pc carry, and as
// CHANGELOG.md's newest entry (test/checks/version.py checks the three).
#pragma once

#include "detail/meta/config.cuh"

#define CASCADE_VERSION_MAJOR 0
#define CASCADE_VERSION_MINOR 1
#define CASCADE_VERSION_PATCH 0
#define CASCADE_VERSION (CASCADE_VERSION_MAJOR * 100000 + CASCADE_VERSION_MINOR * 100 + CASCADE_VERSION_PATCH)
