// Command-line parsing for the tessera CLI.
#include "native/args.h"

#include <cstdlib>

namespace tessera::cli {

std::string Args::get(const std::string& name, const std::string& fallback) const {
  auto it = options.find(name);
  return it == options.end() ? fallback : it->second.back();
}

const std::vector<std::string>& Args::all(const std::string& name) const {
  static const std::vector<std::string> kNone;
  auto it = options.find(name);
  return it == options.end() ? kNone : it->second;
}

Result<int> Args::get_int(const std::string& name, int fallback, int min, int max) const {
  if (!options.count(name)) return fallback;
  const std::string text = get(name, "");
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < min || value > max) {
    return Status::error("--" + name + " must be an integer from " + std::to_string(min) + " to " +
                         std::to_string(max) + ", got \"" + text + "\"");
  }
  return static_cast<int>(value);
}

Result<double> Args::get_double(const std::string& name, double fallback) const {
  if (!options.count(name)) return fallback;
  const std::string text = get(name, "");
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value > 0)) {
    return Status::error("--" + name + " must be a positive number, got \"" + text + "\"");
  }
  return value;
}

Result<Args> parse_args(int argc, char** argv, int first, const ArgSpec& spec) {
  Args args;
  for (int i = first; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0 && arg != "-o") {
      args.positional.push_back(arg);
      continue;
    }
    const std::string name = arg == "-o" ? "output" : arg.substr(2);
    if (spec.flags.count(name)) {
      args.flags.insert(name);
    } else if (spec.options.count(name)) {
      if (i + 1 >= argc) return Status::error(arg + " needs a value");
      args.options[name].push_back(argv[++i]);
    } else {
      return Status::error("unknown option " + arg + " (see --help)");
    }
  }
  return args;
}

std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(separator, start);
    const size_t end = comma == std::string::npos ? text.size() : comma;
    if (end > start) parts.push_back(text.substr(start, end - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

}  // namespace tessera::cli
