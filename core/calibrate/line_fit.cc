#include "core/calibrate/line_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::calibration {

namespace {

constexpr int kTerms = 3;  // scale (x predicted), tile (x 1), tap (x taps)

// The weighted least-squares solution over the terms `used` (term 0, the scale, always);
// false when the samples cannot tell those terms apart.
bool solve(const std::vector<FitSample>& samples, const bool (&used)[kTerms], double (&solution)[kTerms]) {
  int index[kTerms], n = 0;
  for (int t = 0; t < kTerms; ++t) {
    if (used[t]) index[n++] = t;
  }
  double a[kTerms][kTerms] = {}, b[kTerms] = {};
  for (const FitSample& s : samples) {
    if (s.measured <= 0) continue;
    const double x[kTerms] = {s.predicted, 1, s.taps};
    const double weight = 1 / s.measured;
    for (int i = 0; i < n; ++i) {
      b[i] += weight * x[index[i]] * s.measured;
      for (int j = 0; j < n; ++j) a[i][j] += weight * x[index[i]] * x[index[j]];
    }
  }
  for (int col = 0; col < n; ++col) {  // Gauss-Jordan elimination, partial pivoting
    int pivot = col;
    for (int r = col + 1; r < n; ++r) pivot = std::abs(a[r][col]) > std::abs(a[pivot][col]) ? r : pivot;
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    if (std::abs(a[col][col]) < 1e-30) return false;
    for (int r = 0; r < n; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      for (int c = 0; c < n; ++c) a[r][c] -= f * a[col][c];
      b[r] -= f * b[col];
    }
  }
  std::fill(solution, solution + kTerms, 0.0);
  for (int i = 0; i < n; ++i) solution[index[i]] = b[i] / a[i][i];
  return true;
}

double weighted_squared_error(const std::vector<FitSample>& samples, const double (&solution)[kTerms]) {
  double sum = 0;
  for (const FitSample& s : samples) {
    if (s.measured <= 0) continue;
    const double error = solution[0] * s.predicted + solution[1] + solution[2] * s.taps - s.measured;
    sum += error * error / s.measured;
  }
  return sum;
}

}  // namespace

plan::InModel fit_line(const std::vector<FitSample>& samples) {
  plan::InModel best;
  double best_error = std::numeric_limits<double>::infinity();
  for (const bool tile : {true, false}) {
    for (const bool tap : {true, false}) {
      const bool used[kTerms] = {true, tile, tap};
      double solution[kTerms];
      if (!solve(samples, used, solution) || solution[0] <= 0 || solution[1] < 0 || solution[2] < 0) continue;
      const double error = weighted_squared_error(samples, solution);
      if (error < best_error) {
        best_error = error;
        best = {solution[0], solution[1], solution[2]};
      }
    }
  }
  return best;
}

}  // namespace tessera::calibration
