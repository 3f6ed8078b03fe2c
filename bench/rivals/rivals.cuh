// bench/rivals/rivals.cuh: what the units of cascade-rivals share. A unit (unit.cu, built once per
// algorithm family and item type) lists, for each size, the calls that compete on the same buffers:
// cascade's and CUB's, CUB in every determinism mode the CCCL it is built against offers. The program
// (rivals.cu, an NVBench program) turns each call into a state of the unit's benchmark, checks every
// result against the first CUB call's and times them. The program is built twice from the same
// sources: against the toolkit's CCCL (cascade-rivals) and against the newest CCCL
// (cascade-rivals-newest, headers from PyPI, scripts/fetch-cccl.sh); each state records which CCCL.
// The driver (checks, timing, axes) is bench/support/contest.cu's, as every rival bench's.
#pragma once

#include <string>
#include <vector>

#include "support/contest.cuh"

namespace rivals {

struct settings {
  int min_log2 = 10, max_log2 = 30, step = 1;
  bool arg_shapes = false;  // argmin also under a few fixed policies (block x coarse, finish::flagged)
  bool dry = false;         // only the names: no device memory, no calls (the program's axes)
};

// A contender, a measurement and what a unit adds to: bench/support/contest.cuh.
using contest::contender;
using contest::measurement;
using contest::sink;

// Records a row that is not a timing (what each library returns for ties and NaN).
void note(sink& out, std::string const& family, std::string const& item, std::string const& input,
          std::string const& library, std::string const& result);

using contest::cccl_version;

// The sizes a unit builds measurements for, as settings say.
std::vector<long long> sizes(settings const& s);

}  // namespace rivals
