// The program goes to CBC as a column-major matrix with row bounds, the warm start (if any)
// as a MIP start over every column.
#include "native/milp/cbc_solver.h"

#include <coin/Cbc_C_Interface.h>

#include <cfloat>
#include <memory>
#include <numeric>

namespace tessera::milp {

Result<plan::MilpResult> solve_with_cbc(const plan::Milp& milp, const std::vector<double>& start, double seconds) {
  const int columns = static_cast<int>(milp.columns.size());
  const int rows = static_cast<int>(milp.rows.size());
  if (!start.empty() && start.size() != milp.columns.size())
    return Status::error("milp: the start has the wrong number of values");
  // Row-major coefficients to column-major.
  std::vector<std::vector<std::pair<int, double>>> by_column(columns);
  for (int r = 0; r < rows; ++r) {
    const plan::Milp::Row& row = milp.rows[r];
    for (size_t k = 0; k < row.columns.size(); ++k) by_column[row.columns[k]].emplace_back(r, row.coefficients[k]);
  }
  std::vector<CoinBigIndex> column_start{0};
  std::vector<int> index;
  std::vector<double> value, lower, upper, objective, row_lower, row_upper;
  for (int c = 0; c < columns; ++c) {
    for (const auto& [r, v] : by_column[c]) index.push_back(r), value.push_back(v);
    column_start.push_back(static_cast<CoinBigIndex>(index.size()));
    lower.push_back(milp.columns[c].lower);
    upper.push_back(milp.columns[c].upper >= 1e300 ? DBL_MAX : milp.columns[c].upper);
    objective.push_back(milp.columns[c].objective);
  }
  for (const plan::Milp::Row& row : milp.rows) {
    row_lower.push_back(row.sense == 'L' ? -DBL_MAX : row.rhs);
    row_upper.push_back(row.sense == 'G' ? DBL_MAX : row.rhs);
  }

  std::unique_ptr<Cbc_Model, void (*)(Cbc_Model*)> model(Cbc_newModel(), Cbc_deleteModel);
  Cbc_loadProblem(model.get(), columns, rows, column_start.data(), index.data(), value.data(), lower.data(),
                  upper.data(), objective.data(), row_lower.data(), row_upper.data());
  for (int c = 0; c < columns; ++c)
    if (milp.columns[c].integer) Cbc_setInteger(model.get(), c);
  Cbc_setObjSense(model.get(), 1);
  Cbc_setLogLevel(model.get(), 0);
  Cbc_setMaximumSeconds(model.get(), seconds);
  if (!start.empty()) {
    std::vector<int> all(columns);
    std::iota(all.begin(), all.end(), 0);
    Cbc_setMIPStartI(model.get(), columns, all.data(), start.data());
  }
  Cbc_solve(model.get());

  plan::MilpResult result;
  result.optimal = Cbc_isProvenOptimal(model.get()) != 0;
  if (const double* solution = Cbc_bestSolution(model.get())) result.values.assign(solution, solution + columns);
  return result;
}

}  // namespace tessera::milp

extern "C" tessera::milp::SolveFunction tessera_cbc_solver() { return tessera::milp::solve_with_cbc; }
