// The benches' side-by-side timing: interleaved rounds, and the output fingerprints that
// decide whether configurations agreed.
#include "native/timed_runs.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace {

using tessera::Tensor;
using tessera::cli::outputs_digest;

std::vector<Tensor> outputs() { return {Tensor("y", {2, 2}, {1.0f, 2.0f, 3.0f, 4.0f}), Tensor("z", {1}, {5.0f})}; }

}  // namespace

TEST_CASE("the outputs' digest changes with any byte, dim, dtype, name or count") {
  const uint64_t base = outputs_digest(outputs());
  CHECK(outputs_digest(outputs()) == base);

  auto bit = outputs();
  bit[1].bytes[3] ^= std::byte{1};
  CHECK(outputs_digest(bit) != base);

  auto reshaped = outputs();
  reshaped[0].dims = {4, 1};
  CHECK(outputs_digest(reshaped) != base);

  auto retyped = outputs();
  retyped[0].dtype = tessera::DType::kInt32;
  CHECK(outputs_digest(retyped) != base);

  auto renamed = outputs();
  renamed[1].name = "w";
  CHECK(outputs_digest(renamed) != base);

  CHECK(outputs_digest({outputs()[0]}) != base);
}

TEST_CASE("interleaved runs time every round and keep the first run's digest, not its outputs") {
  int calls = 0;
  tessera::cli::TimedRun run;
  run.run = [&calls]() -> tessera::Result<std::vector<Tensor>> {
    ++calls;
    auto out = outputs();
    out[1].bytes[0] = static_cast<std::byte>(calls);  // every run differs: only the first counts
    return out;
  };
  REQUIRE(tessera::cli::run_interleaved({&run}, 3, 0.0).ok());
  CHECK(calls == 2 + 3);  // two warm-up runs, then one per round
  CHECK(run.ms.size() == 3);
  auto first = outputs();
  first[1].bytes[0] = std::byte{1};
  REQUIRE(run.first_digest.has_value());
  CHECK(*run.first_digest == outputs_digest(first));
}

TEST_CASE("a failed run stops the interleaved runs with its error") {
  tessera::cli::TimedRun run;
  run.run = []() -> tessera::Result<std::vector<Tensor>> { return tessera::Status::error("input x: wrong shape"); };
  const tessera::Status status = tessera::cli::run_interleaved({&run}, 3, 0.0);
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() == "input x: wrong shape");
  CHECK(run.ms.empty());
}
