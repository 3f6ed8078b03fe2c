// The examples of docs/distributed.md, compiled here and run on the GPU (one rank per visible GPU, or
// one rank on one GPU): each returns 0 when its results are right. test/checks/doc_examples.py checks that the
// document shows exactly these files.
#include <doctest/doctest.h>

#include <cstdlib>

#define main distributed_examples_main
#include "docs/examples/distributed.cu"
#undef main

#define main distributed_ranks_main
#include "docs/examples/distributed_ranks.cu"
#undef main

// Under scripts/launch-ranks.sh (CASCADE_RANK set) only the one-process-per-GPU example runs, as one
// of the launched ranks; otherwise both, that one as rank 0 of 1.
TEST_SUITE("gpu") {
TEST_CASE("docs/distributed.md: one process, every GPU") {
  if (std::getenv("CASCADE_RANK") == nullptr) CHECK(distributed_examples_main() == 0);
}
TEST_CASE("docs/distributed.md: one process per GPU") { CHECK(distributed_ranks_main() == 0); }
}
