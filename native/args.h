// A small command-line parser: positional arguments, `--name value` options (repeatable)
// and `--flag` switches, with errors that name the offending argument.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tessera/status.h"

namespace tessera::cli {

struct ArgSpec {
  std::set<std::string> options;  // take a value
  std::set<std::string> flags;    // take none
};

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> options;
  std::set<std::string> flags;

  bool has(const std::string& name) const { return options.count(name) || flags.count(name); }
  std::string get(const std::string& name, const std::string& fallback) const;
  const std::vector<std::string>& all(const std::string& name) const;
  Result<int> get_int(const std::string& name, int fallback, int min, int max) const;
  Result<double> get_double(const std::string& name, double fallback) const;
};

Result<Args> parse_args(int argc, char** argv, int first, const ArgSpec& spec);

// Splits "a,b,c".
std::vector<std::string> split_list(const std::string& text, char separator = ',');

}  // namespace tessera::cli
