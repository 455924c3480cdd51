// The one Catch2 main for every test executable. Tests see the same engine on every machine:
// a profile `tessera calibrate` saved here would make `auto` plans search and the cost model
// choose algorithms, so saved profiles are looked for where there are none, unless the caller
// names a directory.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>

int main(int argc, char* argv[]) {
  setenv("TESSERA_PROFILE_DIR", "/nonexistent/tessera-tests", /*overwrite=*/0);
  return Catch::Session().run(argc, argv);
}
