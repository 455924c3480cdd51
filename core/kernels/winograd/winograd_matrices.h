// The transform matrices of F(4x4, 3x3) (points 0, 1, -1, 2, -2 and infinity) and F(2x2, 3x3)
// (0, 1, -1 and infinity) (Lavin and Gray, 2016): the weight packing and the reference
// transforms compute with them as written.
#pragma once

#include "core/kernels/winograd/winograd.h"

namespace tessera::kernels::winograd {

inline constexpr double kF4Bt[6][6] = {
    {4, 0, -5, 0, 1, 0},  {0, -4, -4, 1, 1, 0}, {0, 4, -4, -1, 1, 0},
    {0, -2, -1, 2, 1, 0}, {0, 2, -1, -2, 1, 0}, {0, 4, 0, -5, 0, 1},
};

inline constexpr double kF4G[6][3] = {
    {1.0 / 4, 0, 0},
    {-1.0 / 6, -1.0 / 6, -1.0 / 6},
    {-1.0 / 6, 1.0 / 6, -1.0 / 6},
    {1.0 / 24, 1.0 / 12, 1.0 / 6},
    {1.0 / 24, -1.0 / 12, 1.0 / 6},
    {0, 0, 1},
};

inline constexpr double kF4At[4][6] = {
    {1, 1, 1, 1, 1, 0},
    {0, 1, -1, 2, -2, 0},
    {0, 1, 1, 4, 4, 0},
    {0, 1, -1, 8, -8, 1},
};

inline constexpr double kF2Bt[4][4] = {{1, 0, -1, 0}, {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, 0, -1}};
inline constexpr double kF2G[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
inline constexpr double kF2At[2][4] = {{1, 1, 1, 0}, {0, 1, -1, -1}};

// Element (i, j) of B^T, G and A^T for `tile`.
inline double bt(WinogradTile tile, int i, int j) { return tile == kWinogradF4 ? kF4Bt[i][j] : kF2Bt[i][j]; }
inline double g(WinogradTile tile, int i, int j) { return tile == kWinogradF4 ? kF4G[i][j] : kF2G[i][j]; }
inline double at(WinogradTile tile, int i, int j) { return tile == kWinogradF4 ? kF4At[i][j] : kF2At[i][j]; }

}  // namespace tessera::kernels::winograd
