// Runs the tessera CLI from a test: exit code and output, a signal told apart from an exit.
#pragma once

#include <sys/wait.h>

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tessera::testing {

struct CliOutcome {
  int exit_code = -1;  // -1: did not exit normally (killed by a signal)
  std::string out, err;
};

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  REQUIRE(file.good());
}

inline void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(file.good());
}

// A directory of this process's own (other CLI tests may run alongside), named after `test`
// and removed when the process exits.
inline const std::string& work_dir(const std::string& test) {
  struct Directory {
    std::string path;
    ~Directory() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Directory dir = [&] {
    const std::filesystem::path d =
        std::filesystem::temp_directory_path() / ("tessera_" + test + "." + std::to_string(getpid()));
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return Directory{d.string()};
  }();
  return dir.path;
}

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
