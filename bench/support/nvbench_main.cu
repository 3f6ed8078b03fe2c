// bench/support/nvbench_main.cu: main() of cascade's NVBench programs: NVBench's, with what
// nvbench_program.cuh describes (--versions, --notes, a program's own options, the exit status).
#include "nvbench_program.cuh"

#include <cstdio>
#include <cstring>

#include "nvbench_check.cuh"

int main(int argc, char** argv) try {
  if (argc == 2 && std::strcmp(argv[1], "--versions") == 0) return cascade_nvbench::print_versions();
  std::vector<std::string> args = nvbench::detail::main_convert_args(argc, argv);
  std::string const notes_path = cascade_nvbench::take_option(args, "--notes");
  if (auto const hook = cascade_nvbench::before_parse()) hook(args);
  nvbench::detail::main_initialize(argc, argv);
  {
    nvbench::option_parser parser;
    parser.parse(args);
    NVBENCH_MAIN_PRINT_PREAMBLE(parser);
    NVBENCH_MAIN_RUN_BENCHMARKS(parser);
    NVBENCH_MAIN_PRINT_EPILOGUE(parser);
    NVBENCH_MAIN_PRINT_RESULTS(parser);
  }
  for (auto hook = cascade_nvbench::before_exit().rbegin(); hook != cascade_nvbench::before_exit().rend(); ++hook)
    (*hook)();
  if (!notes_path.empty() && !cascade_nvbench::write_notes(notes_path)) {
    std::fprintf(stderr, "cannot write %s\n", notes_path.c_str());
    return 1;
  }
  // Not NVBench's main_finalize(), which resets the device: cascade's own statics (its scratch pool,
  // its page-locked result blocks) free their memory when the program exits, and freeing into a reset
  // context faulted now and then (cudaFree and cudaFreeHost answered "invalid argument" first).
  return cascade_nvbench::exit_status();
}
NVBENCH_MAIN_CATCH_EXCEPTIONS
