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

#define main distributed_launch_main
#include "docs/examples/distributed_launch.cu"
#undef main

#include <string>

// Under scripts/launch-ranks.sh (CASCADE_RANK set) the one-process-per-GPU and launcher examples run, as
// one of the launched ranks; otherwise the first two, the second as rank 0 of 1.
TEST_SUITE("gpu") {
TEST_CASE("docs/distributed.md: one process, every GPU") {
  if (std::getenv("CASCADE_RANK") == nullptr) CHECK(distributed_examples_main() == 0);
}
TEST_CASE("docs/distributed.md: one process per GPU") { CHECK(distributed_ranks_main() == 0); }
// Needs a launcher's variables: run under scripts/launch-ranks.sh, with an id file of its own.
TEST_CASE("docs/distributed.md: the rank a launcher set") {
  char const* id_file = std::getenv("CASCADE_NCCL_ID_FILE");
  if (std::getenv("CASCADE_RANK") == nullptr || id_file == nullptr) return;
  std::string path = std::string(id_file) + ".launch";
  char name[] = "distributed_launch";
  char* argv[] = {name, path.data(), nullptr};
  CHECK(distributed_launch_main(2, argv) == 0);
}
}
