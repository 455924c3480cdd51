// How fast two cores answer each other right now: the state a multi-threaded run meets. On a
// VM the host may move its vCPUs apart (on the 2-vCPU hosts of docs/benchmarks.md, a round
// trip of 70-120 ns or of about 400 ns, for minutes at a time), and every tile that reads
// another core's output pays for it: PP-OCR cls ran 0.27 ms on two threads in one state and
// 0.60 ms in the other. Benches report it so that runs in either state are not compared.
#pragma once

#include <optional>

namespace tessera::cli {

// The median round trip, in ns, of a cache line passed between two spinning threads (placed
// by the OS, as the executor's are), or nothing on a machine of one core. Takes about a
// millisecond. Stops after 20 ms (two threads sharing one core answer once per time slice)
// and then reports the time so far per trip made.
std::optional<double> core_round_trip_ns();

// Whether round trips measured before and after some work differ by more than 2x: the host
// moved its cores in between (the hosts of docs/benchmarks.md switch between about 100 and
// 400 ns), and several-thread times taken then mix two states.
bool cores_moved(double before_ns, double after_ns);

}  // namespace tessera::cli
