// The in-model fit's line against data made from known lines.
#include "core/calibrate/line_fit.h"

#include <catch2/catch.hpp>

namespace tessera::calibration {
namespace {

// Tiles of 1-100 us predicted, 0-40 tap blocks varying apart from the prediction, timed as
// scale * predicted + tile + tap * taps.
std::vector<FitSample> samples_of(double scale, double tile, double tap) {
  std::vector<FitSample> samples;
  for (int i = 0; i < 40; ++i) {
    const double predicted = 1e-6 * (1 + (i * 37) % 100);
    const double taps = static_cast<double>((i * 13) % 41);
    samples.push_back({predicted, taps, scale * predicted + tile + tap * taps});
  }
  return samples;
}

TEST_CASE("the fit recovers a line's scale, tile and tap costs") {
  const plan::InModel fit = fit_line(samples_of(0.9, 20e-9, 30e-9));
  CHECK(fit.scale == Approx(0.9));
  CHECK(fit.tile == Approx(20e-9));
  CHECK(fit.tap == Approx(30e-9));
}

TEST_CASE("a cost that would come out negative is left out, and the others are fitted without it") {
  // Tiles 5 ns cheaper than no setup at all: the three-term fit reads a negative tile cost.
  // The tap cost stays (dropping it instead would lend its 30 ns a block to scale and tile).
  const plan::InModel fit = fit_line(samples_of(0.9, -5e-9, 30e-9));
  CHECK(fit.tile == 0);
  CHECK(fit.tap == Approx(30e-9).epsilon(0.05));
  CHECK(fit.scale == Approx(0.9).epsilon(0.02));
  // And the other way round: a negative tap cost goes, the tile cost stays.
  const plan::InModel no_taps = fit_line(samples_of(0.9, 50e-9, -1e-9));
  CHECK(no_taps.tap == 0);
  CHECK(no_taps.tile > 0);
}

TEST_CASE("without timed samples the fit is the identity") {
  std::vector<FitSample> untimed = samples_of(0.9, 20e-9, 30e-9);
  for (FitSample& s : untimed) s.measured = 0;
  for (const std::vector<FitSample>& samples : {untimed, std::vector<FitSample>{}}) {
    const plan::InModel fit = fit_line(samples);
    CHECK(fit.scale == 1);
    CHECK(fit.tile == 0);
    CHECK(fit.tap == 0);
  }
}

}  // namespace
}  // namespace tessera::calibration
