// src/measure/results.cpp: results files, written and read with nlohmann-json (Debian's
// nlohmann-json3-dev), the library doing the escaping, number formatting and parsing. Only the host
// compiler sees it. The layout is a JSON object with one member per line and one row per line:
//
//   {
//     "gpu": "NVIDIA H200",
//     ...
//     "method": "...",
//     "rows": [
//       {"config":"float-plus","n":1024,...},
//       ...
//     ]
//   }
#include "results.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace cascade_bench {

namespace {

using json = nlohmann::ordered_json;  // members in the order they are added, as earlier files have them

// x to `decimals` decimal places (what "%.3f" wrote before), so that files do not carry the timers'
// noise digits; NaN stays NaN (null in the file).
double rounded(double x, int decimals) {
  double const scale = std::pow(10.0, decimals);
  return std::isfinite(x) ? std::round(x * scale) / scale : x;
}

// The layout above: the library writes every value, this only places them on lines.
void write_document(std::ostream& out, json const& doc) {
  out << "{\n";
  std::size_t member = 0;
  for (auto const& item : doc.items()) {
    std::string const& key = item.key();
    json const& value = item.value();
    out << "  " << json(key).dump() << ": ";
    if (key == "rows" && value.is_array()) {
      out << "[\n";
      for (std::size_t i = 0; i < value.size(); ++i)
        out << "    " << value[i].dump() << (i + 1 < value.size() ? ",\n" : "\n");
      out << "  ]";
    } else {
      out << value.dump();
    }
    out << (++member < doc.size() ? ",\n" : "\n");
  }
  out << "}\n";
}

double number_or_nan(json const& row, char const* key) {
  auto const it = row.find(key);
  return it != row.end() && it->is_number() ? it->get<double>() : std::numeric_limits<double>::quiet_NaN();
}

std::string string_or_empty(json const& doc, char const* key) {
  auto const it = doc.find(key);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

bool write_results(std::string const& path, environment const& e, options const& o, char const* method,
                   std::vector<std::string> const& rows) {
  json doc;
  doc["gpu"] = e.gpu;
  doc["sm_count"] = e.sm_count;
  doc["compute_capability"] = std::to_string(e.cc_major) + "." + std::to_string(e.cc_minor);
  doc["l2_mb"] = rounded(e.l2_mb, 1);
  doc["memory_gbs"] = e.memory_gbs;
  doc["cuda_driver_api"] = e.driver;
  doc["cuda_runtime"] = e.runtime;
  doc["date"] = e.date;
  if (!e.cccl.empty()) doc["cccl"] = e.cccl;
  if (!e.assertions.empty()) doc["assertions"] = e.assertions;
  doc["cascade_commit"] = o.commit;
  doc["nvidia_driver"] = o.driver;
  doc["method"] = method;
  json& out_rows = doc["rows"] = json::array();
  bool all_json = true;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    json row = json::parse(rows[i], nullptr, /*allow_exceptions=*/false);
    if (!row.is_object()) {
      std::fprintf(stderr, "%s: row %zu is not a JSON object; kept as a string: %s\n", path.c_str(), i,
                   rows[i].c_str());
      row = rows[i];
      all_json = false;
    }
    out_rows.push_back(std::move(row));
  }
  std::ofstream out(path);
  if (out) write_document(out, doc);
  if (!out) {
    std::perror(path.c_str());
    return false;
  }
  std::printf("wrote %s\n", path.c_str());
  return all_json;
}

std::string to_json(tune_row const& r) {
  json row;
  row["config"] = r.config;
  row["n"] = r.n;
  row["name"] = r.name;
  row["group"] = r.group;
  row["table_eligible"] = r.table_eligible;
  row["hot_us"] = rounded(r.hot_us, 3);
  row["cold_us"] = rounded(r.cold_us, 3);
  row["agrees"] = r.agrees;
  return row.dump();
}

tune_results read_tune_results(std::string const& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cascade-tune: cannot read " + path);
  try {
    json const doc = json::parse(in);
    if (!doc.is_object() || !doc.contains("rows") || !doc["rows"].is_array())
      throw std::runtime_error("cascade-tune: " + path + " is not a results file (no \"rows\" list)");
    tune_results r;
    r.env.gpu = string_or_empty(doc, "gpu");
    r.env.date = string_or_empty(doc, "date");
    std::string const cc = string_or_empty(doc, "compute_capability");  // "9.0"
    if (std::size_t const dot = cc.find('.'); dot != std::string::npos && dot > 0 && dot + 1 < cc.size() &&
                                               cc.find_first_not_of("0123456789.") == std::string::npos) {
      r.env.cc_major = std::stoi(cc.substr(0, dot));
      r.env.cc_minor = std::stoi(cc.substr(dot + 1));
    }
    r.env.sm_count = doc.value("sm_count", 0);
    r.env.l2_mb = doc.value("l2_mb", 0.0);
    r.env.memory_gbs = doc.value("memory_gbs", 0);
    r.env.driver = doc.value("cuda_driver_api", 0);
    r.env.runtime = doc.value("cuda_runtime", 0);
    r.env.cccl = string_or_empty(doc, "cccl");
    r.env.assertions = string_or_empty(doc, "assertions");
    r.driver = string_or_empty(doc, "nvidia_driver");
    r.commit = string_or_empty(doc, "cascade_commit");
    for (json const& row : doc["rows"]) {
      auto const n = row.is_object() ? row.find("n") : row.end();
      if (!row.is_object() || n == row.end() || !n->is_number_integer()) continue;  // not a measurement
      tune_row t;
      t.config = string_or_empty(row, "config");
      t.n = n->get<long long>();
      t.name = string_or_empty(row, "name");
      t.group = string_or_empty(row, "group");
      t.table_eligible = row.value("table_eligible", false);
      t.hot_us = number_or_nan(row, "hot_us");
      t.cold_us = number_or_nan(row, "cold_us");
      t.agrees = row.value("agrees", false);
      r.rows.push_back(std::move(t));
    }
    return r;
  } catch (json::exception const& e) {  // not JSON, or a member of another type than this program writes
    throw std::runtime_error("cascade-tune: cannot read " + path + ": " + e.what());
  }
}

}  // namespace cascade_bench
