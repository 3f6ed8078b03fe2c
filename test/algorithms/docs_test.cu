// Every example in README.md and docs/ is compiled here and run on the GPU (each returns 0 when its
// results are right). test/checks/doc_examples.py checks that the documents show exactly these files.
#include <doctest/doctest.h>

// first: its extern declarations (calls.cuh) come before any file here could instantiate those calls
#define main calls_example_main
#include "docs/examples/calls_use.cu"
#undef main

#define main readme_minimal_main
#include "docs/examples/minimal.cu"
#undef main

#define main api_examples_main
#include "docs/examples/api.cu"
#undef main

#define main algorithms_examples_main
#include "docs/examples/algorithms.cu"
#undef main

#define main memory_examples_main
#include "docs/examples/memory.cu"
#undef main

#define main axes_examples_main
#include "docs/examples/axes.cu"
#undef main

TEST_SUITE("gpu") {
TEST_CASE("README minimal example") { CHECK(readme_minimal_main() == 0); }
TEST_CASE("docs/api.md examples") { CHECK(api_examples_main() == 0); }
TEST_CASE("docs/algorithms.md examples") { CHECK(algorithms_examples_main() == 0); }
TEST_CASE("docs/memory.md examples") { CHECK(memory_examples_main() == 0); }
TEST_CASE("docs/axes.md examples") { CHECK(axes_examples_main() == 0); }
TEST_CASE("docs/guide.md: a call's kernels compiled once (calls.cu)") { CHECK(calls_example_main() == 0); }
}
