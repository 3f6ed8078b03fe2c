# The usage requirements of cascade::cascade, one list for both ways a CMake project gets it: the
# installed package (cascadeConfig.cmake) and the source tree (CMakeLists.txt, for add_subdirectory
# and FetchContent). The includer sets _cascade_target (the target) and _cascade_include (the
# directory that holds cascade/cascade.cuh), and has found CUDAToolkit.
#  - The include directory.
#  - --extended-lambda (__device__ lambdas as ops) and C++20 (the compile feature cuda_std_20), for
#    CUDA sources: cascade's headers are CUDA C++, compiled by nvcc. CMake learned nvcc's C++20 flag
#    in 3.25.2 and cuda_std_20 is an error before (Debian 12 has 3.25.1): there the flag itself,
#    -std=c++20, which holds only where CMake adds no -std of its own after it (nvcc takes the last),
#    that is where policy CMP0128 is NEW (cmake_minimum_required(VERSION 3.22) or later) and no
#    CUDA_STANDARD above 17 is asked for. A warning says so where the policy is not NEW: the
#    includer may set _cascade_cmp0128 to the consumer's setting (CMakeLists.txt does), else this
#    file reads the policy where it is included (find_package runs it in the consumer's scope).
#  - The CUDA runtime the consumer picked with CUDA_RUNTIME_LIBRARY (CMAKE_CUDA_RUNTIME_LIBRARY):
#    CUDA::cudart for Shared, CUDA::cudart_static for Static or unset (CMake's and nvcc's default),
#    nothing for None. CUDA::cudart always would put the shared runtime on the link line beside the
#    static one that CMake links for the program's CUDA code by default.
#  - No architectures: the consumer picks them (CMAKE_CUDA_ARCHITECTURES, CUDA_ARCHITECTURES).
set(_cascade_runtime "$<UPPER_CASE:$<TARGET_PROPERTY:CUDA_RUNTIME_LIBRARY>>")
set_target_properties(${_cascade_target} PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${_cascade_include}"
  INTERFACE_COMPILE_OPTIONS "$<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>"
  INTERFACE_LINK_LIBRARIES
    "$<$<STREQUAL:${_cascade_runtime},SHARED>:CUDA::cudart>;$<$<OR:$<STREQUAL:${_cascade_runtime},STATIC>,$<STREQUAL:${_cascade_runtime},>>:CUDA::cudart_static>")
if(CMAKE_VERSION VERSION_LESS 3.25.2)
  set_property(TARGET ${_cascade_target} APPEND PROPERTY
               INTERFACE_COMPILE_OPTIONS "$<$<COMPILE_LANGUAGE:CUDA>:-std=c++20>")
  if(NOT DEFINED _cascade_cmp0128)
    cmake_policy(GET CMP0128 _cascade_cmp0128)
  endif()
  if(NOT _cascade_cmp0128 STREQUAL "NEW")
    message(WARNING "cascade: CMake ${CMAKE_VERSION} knows no C++20 flag for nvcc (3.25.2 does), so "
                    "cascade::cascade passes -std=c++20 itself, and CMake's own -std=c++17 overrides it "
                    "where policy CMP0128 is not NEW. Use cmake_minimum_required(VERSION 3.22) or later "
                    "in your project, or CMake 3.25.2 or later.")
  endif()
else()
  set_property(TARGET ${_cascade_target} PROPERTY INTERFACE_COMPILE_FEATURES cuda_std_20)
endif()
unset(_cascade_runtime)
unset(_cascade_cmp0128)
