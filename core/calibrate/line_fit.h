// The in-model fit's line: a kind of work's measured tile times against the rates'
// predictions, as a scale, a cost per tile and a cost per GEMM tap block (plan::InModel).
#pragma once

#include <vector>

#include "core/plan/profile.h"

namespace tessera::calibration {

// One tile: its time from the rates alone, its GEMM tap blocks, its measured time (seconds).
struct FitSample {
  double predicted = 0;
  double taps = 0;
  double measured = 0;
};

// Weighted least squares of measured = scale * predicted + tile + tap * taps, each sample
// weighted by 1 / measured (a tile's timing noise grows with its length). Unweighted, the
// largest tiles set the setup terms that decide the smallest: a 3-4 us setup per GEMM tile
// put PP-OCR cls's tiles of a few microseconds 60 % over on one thread; weighted by
// 1 / measured^2 (relative error), the smallest set the scale that decides the largest, and
// VGG-16 and BERT-base came out 20-25 % over. The scale is positive and the tile and tap
// costs are not negative (a negative setup would make small tiles free): of the fits over
// every subset of {tile, tap} beside the scale, the one of least weighted squared error that
// keeps its signs (for so few terms, exactly the non-negative least squares). The rule before
// dropped the tap term first whichever term came out negative; one calibration of four then
// read GEMMs at scale 0.98, 103 ns a tile and no tap cost, where the others read 0.88-0.91,
// 14-26 ns and 30 ns a tap block, and put ResNet-50 and BERT-base 8-13 % over on one thread.
// The identity fit when no subset keeps its signs.
plan::InModel fit_line(const std::vector<FitSample>& samples);

}  // namespace tessera::calibration
