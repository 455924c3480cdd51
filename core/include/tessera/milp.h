// Mixed-integer linear programs as plain data: how Tessera's placement planner hands an integer
// program to a solver it does not link (natively COIN-OR CBC in the CLI; any other solver a
// host provides through PlaceOptions::milp_solver).
#pragma once

#include <functional>
#include <vector>

#include "tessera/status.h"

namespace tessera {

// Minimise the objective over the columns, subject to the rows.
struct Milp {
  struct Column {
    double lower = 0, upper = 1, objective = 0;  // an upper bound of 1e300 or more is none
    bool integer = false;
  };
  struct Row {
    std::vector<int> columns;
    std::vector<double> coefficients;
    char sense = 'L';  // 'L' (<=), 'G' (>=) or 'E' (=)
    double rhs = 0;
  };
  std::vector<Column> columns;
  std::vector<Row> rows;
};

struct MilpResult {
  std::vector<double> values;  // one per column; empty when no feasible solution was found
  bool optimal = false;        // proven within the time limit
};

// Solves `milp` from the feasible `start` (one value per column; empty: none) within `seconds`.
using MilpSolver =
    std::function<Result<MilpResult>(const Milp& milp, const std::vector<double>& start, double seconds)>;

}  // namespace tessera
