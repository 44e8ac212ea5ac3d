// The bench signature: a fixed set of positions searched to a fixed depth on one thread; the
// total node count identifies the search's behaviour (recorded in bench/bench.nodes).
#pragma once

#include <cstdint>
#include <ostream>

#include "moku/eval/network.h"

namespace moku::app {

// Prints one line per position (its time_ms is the time to depth) and a last line
// `bench: nodes=<N> nps=<X> time_ms=<T>`. Returns the total node count of all threads: exact
// with one thread (the signature), varying from run to run with more (Lazy SMP). With a
// network, the positions it covers are searched with it (marked `nnue` on their lines): the
// node count then differs from the signature, which is always taken without a network. With
// progressOnTerminal, a progress line on stderr, when it is a terminal, names the position
// being searched.
uint64_t runBench(std::ostream& out, int threads = 1, const eval::NetworkPair& network = {},
                  bool progressOnTerminal = false);

} // namespace moku::app
