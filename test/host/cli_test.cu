// The bench programs' and the tuner's command lines (src/measure/cli.hpp): values land where they
// are declared, and anything unknown, missing or malformed stops the program with status 2.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "measure/cli.hpp"

namespace {

struct parsed {
  std::string out = "none";
  int steps = 1;
  double tolerance = 0.03;
  std::vector<std::string> configs;
  bool sweep = false;
  cascade_bench::cli line{"prog", "what it does"};
  parsed() {
    line.option("--out", &out, "where to write")
        .option("--step", &steps, "log2 step")
        .option("--tolerance", &tolerance, "how close")
        .list("--configs", &configs, "which configurations")
        .flag("--sweep", &sweep, "also the sweep")
        .flag("--all", [this] { configs = {"a", "b"}; }, "every configuration");
  }
  std::optional<int> parse(std::vector<char const*> args) {
    args.insert(args.begin(), "prog");
    return line.parse(static_cast<int>(args.size()), args.data());
  }
};

}  // namespace

TEST_CASE("cli: declared options take their values, in any order") {
  parsed p;
  CHECK_FALSE(p.parse({"--step", "3", "--configs", "x,y", "--out", "r.json", "--tolerance", "0.5", "--sweep",
                       "--configs", "z"})
                  .has_value());
  CHECK(p.steps == 3);
  CHECK(p.out == "r.json");
  CHECK(p.tolerance == doctest::Approx(0.5));
  CHECK(p.configs == std::vector<std::string>{"x", "y", "z"});
  CHECK(p.sweep);
  parsed q;
  CHECK_FALSE(q.parse({"--all"}).has_value());
  CHECK(q.configs == std::vector<std::string>{"a", "b"});
  CHECK_FALSE(q.sweep);
}

TEST_CASE("cli: unknown options, missing and malformed values stop with status 2; --help with 0") {
  CHECK(parsed{}.parse({"--stpe", "3"}) == 2);
  CHECK(parsed{}.parse({"3"}) == 2);
  CHECK(parsed{}.parse({"--step"}) == 2);
  CHECK(parsed{}.parse({"--step", "3x"}) == 2);
  CHECK(parsed{}.parse({"--step", "many"}) == 2);
  CHECK(parsed{}.parse({"--tolerance", "0.1.2"}) == 2);
  CHECK(parsed{}.parse({"--help"}) == 0);
  parsed p;
  std::string const usage = p.line.usage();
  CHECK(usage.find("--tolerance VALUE") != std::string::npos);
  CHECK(usage.find("--configs A,B,...") != std::string::npos);
  CHECK(usage.find("every configuration") != std::string::npos);
}
