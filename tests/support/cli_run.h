// Runs the tessera CLI from a test: exit code and output, a signal told apart from an exit.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace tessera::testing {

struct CliOutcome {
  int exit_code = -1;  // -1: did not exit normally (killed by a signal)
  std::string out, err;
};

inline std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream s;
  s << file.rdbuf();
  return s.str();
}

// Runs `cli arguments` under `environment` (e.g. "TESSERA_PROFILE_DIR=/x"), its output
// captured in files in `dir`.
inline CliOutcome run_cli(const std::string& cli, const std::string& arguments, const std::string& dir,
                          const std::string& environment = "") {
  const std::string command =
      environment + " " + cli + " " + arguments + " > " + dir + "/out.txt 2> " + dir + "/err.txt";
  const int status = std::system(command.c_str());
  CliOutcome o;
  // The shell reports a child killed by signal N as exit code 128 + N.
  if (WIFEXITED(status) && WEXITSTATUS(status) < 128) o.exit_code = WEXITSTATUS(status);
  o.out = read_text(dir + "/out.txt");
  o.err = read_text(dir + "/err.txt");
  return o;
}

}  // namespace tessera::testing
