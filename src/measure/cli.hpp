// src/measure/cli.hpp: strict command lines for cascade's programs (the bench programs and the tuner).
// Every option is declared with its help line. An unknown option, or a missing or malformed value,
// stops the program with status 2 and a message that names it; --help prints the usage. (A CLI
// library such as CLI11 would do this too, but the GPU machines that run these programs have no
// network to install it from, and the parsing they need fits in this file.)
#pragma once

#include <cstdio>
#include <functional>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace cascade_bench {

class cli {
 public:
  cli(std::string program, std::string summary) : program_(std::move(program)), summary_(std::move(summary)) {}

  // --name VALUE, stored into *target (std::string, int or double).
  template <class T>
  cli& option(std::string name, T* target, std::string help) {
    add(std::move(name), "VALUE", std::move(help), [target](std::string const& v) { *target = convert<T>(v); });
    return *this;
  }
  // --name A,B,C (and again to add more), appended to *target.
  cli& list(std::string name, std::vector<std::string>* target, std::string help) {
    add(std::move(name), "A,B,...", std::move(help), [target](std::string const& v) {
      std::stringstream ss(v);
      for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) target->push_back(item);
    });
    return *this;
  }
  // --name, no value: runs `act`.
  cli& flag(std::string name, std::function<void()> act, std::string help) {
    add(std::move(name), "", std::move(help), [act = std::move(act)](std::string const&) { act(); });
    return *this;
  }
  cli& flag(std::string name, bool* target, std::string help) {
    return flag(std::move(name), [target] { *target = true; }, std::move(help));
  }

  // Empty when the program should go on; otherwise the status to exit with (0 after --help, 2 after
  // an error, both already printed).
  std::optional<int> parse(int argc, char const* const* argv) const {
    for (int i = 1; i < argc; ++i) {
      std::string const arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        std::printf("%s", usage().c_str());
        return 0;
      }
      entry const* e = find(arg);
      if (e == nullptr) return fail("unknown option " + arg);
      std::string value;
      if (!e->value_name.empty()) {
        if (i + 1 >= argc) return fail(arg + " needs a value (" + e->value_name + ")");
        value = argv[++i];
      }
      try {
        e->apply(value);
      } catch (std::exception const&) {
        return fail("bad value for " + arg + ": '" + value + "'");
      }
    }
    return std::nullopt;
  }

  std::string usage() const {
    std::string s = "usage: " + program_ + " [options]\n" + summary_ + "\n\noptions:\n";
    for (entry const& e : entries_) {
      std::string head = "  " + e.name + (e.value_name.empty() ? "" : " " + e.value_name);
      if (head.size() < 28) head.resize(28, ' ');
      s += head + " " + e.help + "\n";
    }
    return s + "  --help                     this text\n";
  }

 private:
  struct entry {
    std::string name, value_name, help;
    std::function<void(std::string const&)> apply;
  };

  template <class T>
  static T convert(std::string const& v) {
    if constexpr (std::is_same_v<T, std::string>) {
      return v;
    } else {
      std::size_t used = 0;
      T const x = std::is_same_v<T, int> ? static_cast<T>(std::stoi(v, &used)) : static_cast<T>(std::stod(v, &used));
      if (used != v.size()) throw std::invalid_argument(v);
      return x;
    }
  }

  void add(std::string name, std::string value_name, std::string help, std::function<void(std::string const&)> apply) {
    entries_.push_back({std::move(name), std::move(value_name), std::move(help), std::move(apply)});
  }

  entry const* find(std::string const& name) const {
    for (entry const& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }

  std::optional<int> fail(std::string const& what) const {
    std::fprintf(stderr, "%s: %s (see --help)\n", program_.c_str(), what.c_str());
    return 2;
  }

  std::string program_, summary_;
  std::vector<entry> entries_;
};

}  // namespace cascade_bench
