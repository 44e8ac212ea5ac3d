// The bench signature: a fixed set of positions searched to a fixed depth on one thread; the
// total node count identifies the search's behaviour (recorded in bench/bench.nodes).
#pragma once

#include <cstdint>
#include <ostream>

namespace moku::app {

// Prints one line per position and a last line `bench: nodes=<N> nps=<X> time_ms=<T>`.
// Returns the total node count. `threads` is accepted for the interface; bench uses one.
uint64_t runBench(std::ostream& out, int threads = 1);

} // namespace moku::app
