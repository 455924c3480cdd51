// The tessera subcommands; each parses its own arguments and returns the exit code.
#pragma once

#include <string>

namespace tessera::cli {

int run_command(int argc, char** argv);
int bench_command(int argc, char** argv);
int inspect_command(int argc, char** argv);
int trace_command(int argc, char** argv);
int calibrate_command(int argc, char** argv);
int predict_command(int argc, char** argv);
int plan_command(int argc, char** argv);
int place_command(int argc, char** argv);

// tessera bench --workers K (workers_bench.cc), with the arguments bench parsed.
struct Args;
int workers_bench(const Args& args);

// Prints `message` to stderr as "tessera <command>: error: message" and returns 1.
int fail(const char* command, const std::string& message);

}  // namespace tessera::cli
