// `tessera bench --engine xnnpack`: the same model on XNNPACK's operator-at-a-time runtime.
#pragma once

#include "native/args.h"

namespace tessera::cli {

// Runs MODEL.json through XNNPACK and through Tessera (each --scheduler, default dynamic) for
// each --threads count, interleaved (--runs, --warmup, --json and the model options as in
// tessera bench); prints median/min latency and the largest difference of XNNPACK's outputs
// from Tessera's on the same inputs. Returns the exit code: 1 when the model has ops XNNPACK
// cannot express (the message lists them), when the outputs disagree (above 1e-3 of the
// output's largest magnitude), or when this build has no XNNPACK.
int xnnpack_bench(const Args& args);

}  // namespace tessera::cli
