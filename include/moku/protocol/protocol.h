// The Gomocup brain protocol (with the Yixin-Board extension) on a pair of streams: commands
// in, replies out, one line each, flushed per line. A reader thread keeps reading while the
// engine thinks, so that YXSTOP, END and INFO arrive mid-search.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string_view>
#include <vector>

#include "moku/engine/engine.h"
#include "moku/eval/classical.h"

namespace moku::protocol {

struct Options {
    engine::EngineOptions engine; // the starting options (configuration file, command line)
    eval::ClassicalConfig classical = eval::ClassicalConfig::defaults(); // [classical]
    search::SearchParams search;                                         // [search]
    // After END, end the whole process (std::_Exit) when a search running or queued before END
    // has not returned within endGraceMs of END or of its start (they are cut short, so only a
    // stuck one takes that long); managers kill a brain that lingers (Piskvork after 700 ms).
    // Off in tests.
    bool exitOnEnd = false;
    int endGraceMs = 150;
    // Longer lines are cut to this many bytes (the rest is read and dropped).
    size_t maxLineLength = size_t(1) << 16;
};

// Runs the protocol until END or the end of the input; returns the process exit status (0).
// Prints nothing before the first command. END is urgent: nothing after it is read, and a
// search running or queued before it is cut short (the best move so far, or the move of a
// minimal search), but every command before it is answered, in order, so that a script piping
// its commands and END gets its answers.
int runProtocol(std::istream& in, std::ostream& out, const Options& options);

// The INFO keys the engine knows (its table of setters), each with what it means; README.md's
// "INFO keys:" paragraph names the same keys. INFO with any other key is accepted and ignored.
struct InfoKeyDoc {
    std::string_view key;
    std::string_view meaning;
};
std::vector<InfoKeyDoc> infoKeys();

} // namespace moku::protocol
