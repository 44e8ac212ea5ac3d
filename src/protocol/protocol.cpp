// runProtocol: a reader thread feeds the session; this thread runs the commands.
#include "moku/protocol/protocol.h"

#include <cstdlib>
#include <istream>
#include <thread>

#include "session.h"

namespace moku::protocol {

int runProtocol(std::istream& in, std::ostream& out, const Options& options) {
    Session session(out, options);
    std::thread reader([&] {
        LineReader lines(in, options.maxLineLength);
        std::string line;
        while (lines.next(line)) {
            if (session.onLine(line)) continue;
            // END: the managers kill a brain that lingers; a search that does not return in
            // time must not keep the process alive (waitFinished has closed the output).
            if (options.exitOnEnd && !session.waitFinished(options.endGraceMs)) std::_Exit(0);
            return;
        }
        session.onEof();
    });
    session.run();
    reader.join();
    return 0;
}

} // namespace moku::protocol
