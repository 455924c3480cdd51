#include "native/milp/cbc_loader.h"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <string>

#include "native/milp/cbc_solver.h"

namespace tessera::milp {
namespace {

std::string executable_directory() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length <= 0) return ".";
  const std::string exe(path, static_cast<size_t>(length));
  return exe.substr(0, exe.rfind('/'));
}

Result<SolveFunction> load() {
  const std::string library = executable_directory() + "/" TESSERA_CBC_LIBRARY;
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return Status::error("--ip needs the CBC solver library: " + std::string(dlerror()));
  const auto entry = reinterpret_cast<SolveFunction (*)()>(dlsym(handle, "tessera_cbc_solver"));
  if (entry == nullptr) return Status::error("--ip: " + library + " has no tessera_cbc_solver");
  return entry();  // the library stays loaded for the process's life
}

}  // namespace

Result<MilpSolver> load_cbc_solver() {
  static const Result<SolveFunction> solve = load();
  if (!solve.ok()) return solve.status();
  return MilpSolver(*solve);
}

}  // namespace tessera::milp
