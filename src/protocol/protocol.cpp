// runProtocol: a reader thread feeds the session; this thread runs the commands.
#include "moku/protocol/protocol.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <istream>
#include <mutex>
#include <optional>
#include <ostream>
#include <thread>
#include <vector>

#include "session.h"

namespace moku::protocol {

namespace {

using Clock = std::chrono::steady_clock;

// The lines read before the session exists. Building the session (its engine's tables) takes a
// while in a fresh process, and a manager that writes START, INFO and the first BOARD at once
// counts the move's time from its BOARD: so the reader starts first, stamps each line when it
// reads it, and keeps the lines here until the session takes them, in order, with their times.
class EarlyLines {
public:
    // The session, once attached (the reader then hands it each line itself); until then the
    // line is kept and nullptr returned.
    Session* keepOrPass(const std::string& line) {
        std::lock_guard lock(mutex_);
        if (session_) return session_;
        kept_.push_back({line, Clock::now()});
        return nullptr;
    }
    // Hands the session the lines kept so far (an END among them is the last: the reader stops
    // there) and from now on lets the reader pass lines on.
    void attach(Session& session) {
        std::lock_guard lock(mutex_);
        for (auto& [line, received] : kept_)
            if (!session.onLine(line, received)) break;
        kept_.clear();
        session_ = &session;
        cv_.notify_all();
    }
    // The reader, after END or the end of the input before the session existed: waits for it.
    Session& waitForSession() {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return session_ != nullptr; });
        return *session_;
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<std::pair<std::string, Clock::time_point>> kept_;
    Session* session_ = nullptr;
};

} // namespace

int runProtocol(std::istream& in, std::ostream& out, const Options& options) {
    EarlyLines early;
    std::thread reader([&] {
        LineReader lines(in, options.maxLineLength);
        std::string line;
        bool ended = false;
        while (lines.next(line)) {
            Session* session = early.keepOrPass(line);
            if (!session) {
                if (commandWord(line) != "END") continue;
                // END before the session existed: nothing after it is read.
                ended = true;
                break;
            }
            if (!session->onLine(line)) {
                ended = true;
                break;
            }
        }
        Session& session = early.waitForSession();
        if (!ended) {
            session.onEof();
            return;
        }
        // END: the managers kill a brain that lingers; a search that does not return in time
        // must not keep the process alive (waitFinished has closed the output).
        if (options.exitOnEnd && !session.waitFinished(options.endGraceMs)) std::_Exit(0);
    });
    std::optional<Session> session;
    try {
        session.emplace(out, options);
    } catch (const std::exception& e) {
        // Nothing can be answered; the reader may be blocked on the input, so leave at once.
        out << "ERROR the engine could not start: " << e.what() << std::endl;
        std::_Exit(1);
    }
    early.attach(*session);
    session->run();
    reader.join();
    return 0;
}

} // namespace moku::protocol
