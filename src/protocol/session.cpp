// The session core: the queue the reader fills, the urgent commands the reader handles itself
// (END, YXSTOP, and any line while pondering), dispatch, and thinking. END is urgent for what
// follows it, which is never read, but the commands queued before it are answered in order,
// their searches cut short.
#include "session.h"

#include <chrono>

#include "moku/protocol/format.h"

namespace moku::protocol {

void Output::line(std::string_view text) {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    os_ << text << '\n';
    os_.flush();
}

void Output::close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
}

Session::Session(std::ostream& out, const Options& options) : out_(out), options_(options) {
    engine_.options() = options.engine;
    engine_.setClassicalConfig(options.classical);
    engine_.setSearchParams(options.search);
    engine_.setNoteSink([this](const std::string& note) { message(note); });
}

bool Session::onLine(const std::string& line, std::chrono::steady_clock::time_point received) {
    std::string word = commandWord(line);
    if (word.empty()) return true;
    std::lock_guard lock(mutex_);
    if (word == "END") {
        // Urgent for what follows (the reader stops here), but what came before is answered:
        // the running search stops at once with the best move so far, and every search still
        // queued is cut to a minimal one (markBusy); then run() returns.
        ending_ = true;
        engine_.stop();
        cv_.notify_all();
        return false;
    }
    if (word == "YXSTOP") {
        // Stop the current search; with no search running there is nothing to stop.
        if (busy_ != Busy::NONE) engine_.stop();
        return true;
    }
    if (busy_ == Busy::PONDER) engine_.stop(); // the opponent has moved (or wants something)
    queue_.push_back({line, received});
    cv_.notify_all();
    return true;
}

void Session::onEof() {
    std::lock_guard lock(mutex_);
    eof_ = true;
    if (busy_ == Busy::PONDER) engine_.stop();
    cv_.notify_all();
}

bool Session::waitFinished(int graceMs) {
    std::unique_lock lock(mutex_);
    auto since = std::chrono::steady_clock::now(); // END, then each change of state
    for (;;) {
        uint64_t seen = changes_;
        // A search, cut short by END, has graceMs to return; other commands wait for neither
        // input nor a clock, and get twenty times that as a backstop.
        auto limit = std::chrono::milliseconds(busy_ != Busy::NONE ? graceMs : 20 * graceMs);
        if (cv_.wait_until(lock, since + limit, [&] { return finished_ || changes_ != seen; })) {
            if (finished_) return true;
            since = std::chrono::steady_clock::now();
            continue;
        }
        lock.unlock();
        out_.close(); // no half line, nothing more, from a search that outlives the grace
        return false;
    }
}

bool Session::nextLine(std::string& line, std::chrono::steady_clock::time_point* received) {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return ending_ || eof_ || !queue_.empty(); });
    if (queue_.empty()) return false; // after END or at the end of the input
    line = std::move(queue_.front().line);
    if (received) *received = queue_.front().received;
    queue_.pop_front();
    return true;
}

bool Session::turnWaiting() {
    std::lock_guard lock(mutex_);
    if (ending_ || eof_) return true;
    for (const Queued& q : queue_) {
        std::string word = commandWord(q.line);
        if (word != "INFO" && word != "ABOUT" && word != "YXSHOWFORBID" && word != "YXSHOWINFO")
            return true;
    }
    return false;
}

void Session::run() {
    std::string line;
    std::chrono::steady_clock::time_point received;
    for (;;) {
        // While no command waits, the hash table's pages are made resident a slice at a time.
        engine_.continueHashResident([this] {
            std::lock_guard lock(mutex_);
            return ending_ || eof_ || !queue_.empty();
        });
        if (!nextLine(line, &received)) break;
        // A move's time counts from the manager's command, even when an earlier command (a
        // rule's tables being built, say) kept it waiting in the queue.
        engine_.startTurnClock(received);
        dispatch(line);
        std::lock_guard lock(mutex_);
        changes_++;
        cv_.notify_all();
    }
    std::lock_guard lock(mutex_);
    finished_ = true;
    cv_.notify_all();
}

void Session::dispatch(const std::string& line) {
    std::string_view text = trim(line);
    if (text.empty()) return;
    Command c = splitCommand(text);
    const std::string& w = c.word;
    try {
        if (w == "START")
            cmdStart(c.args);
        else if (w == "RECTSTART")
            cmdRectStart(c.args);
        else if (w == "RESTART")
            cmdRestart();
        else if (w == "BEGIN")
            cmdBegin();
        else if (w == "TURN")
            cmdTurn(c.args);
        else if (w == "BOARD")
            cmdBoard(c.args);
        else if (w == "INFO")
            cmdInfo(c.args);
        else if (w == "TAKEBACK")
            cmdTakeBack(c.args);
        else if (w == "ABOUT")
            out_.line(formatAbout());
        else if (w == "PLAY")
            cmdPlay(c.args);
        else if (w == "SWAP2BOARD")
            cmdSwap2Board(c.args);
        else if (w == "YXBOARD")
            cmdYxBoard(c.args);
        else if (w == "YXSHOWFORBID")
            cmdYxShowForbid();
        else if (w == "YXNBEST")
            cmdYxNBest(c.args);
        else if (w == "YXHASHCLEAR")
            cmdYxHashClear();
        else if (w == "YXSHOWINFO")
            cmdYxShowInfo();
        else
            out_.line("UNKNOWN command " + printable(text));
    } catch (const std::exception& e) {
        error(std::string("internal error: ") + e.what());
    }
}

void Session::markBusy(Busy busy) {
    std::lock_guard lock(mutex_);
    busy_ = busy;
    changes_++;
    cv_.notify_all();
    // After END a search is only a legal move: stopped before it starts, it completes one
    // iteration.
    if (busy != Busy::NONE) ending_ ? engine_.stop() : engine_.clearStop();
}

void Session::reportIteration(const search::IterationInfo& info, bool multiPV) {
    out_.line(formatIteration(info, multiPV));
    if (engine_.options().showDetail && info.pvIndex == 0)
        for (const std::string& s : formatRealtime(info)) out_.line(s);
}

void Session::think(bool playMove) {
    markBusy(Busy::THINK);
    auto onIteration = [this](const search::IterationInfo& info) { reportIteration(info, false); };
    search::SearchResult r;
    try {
        r = playMove ? engine_.thinkAndPlay(onIteration) : engine_.analyse(1, onIteration);
    } catch (...) {
        markBusy(Busy::NONE);
        throw;
    }
    markBusy(Busy::NONE);
    if (r.bestMove == POS_NONE) {
        answerWithoutLegalMove(playMove);
        return;
    }
    out_.line(formatMove(r.bestMove));
    maybePonder();
}

void Session::answerWithoutLegalMove(bool playMove) {
    std::vector<Pos> empty = engine_.board().emptyCells();
    if (empty.empty()) {
        error("no legal move left: the board is full");
        return;
    }
    Pos p = empty.front();
    message("every empty point is forbidden for black; renju would let black pass, which the "
            "protocol cannot say, so Moku plays the forbidden point " +
            formatMove(p));
    if (playMove) engine_.play(p);
    out_.line(formatMove(p));
}

void Session::maybePonder() {
    if (!engine_.options().pondering) return;
    {
        // Only when nothing is waiting: a queued command would otherwise wait for a stop.
        std::lock_guard lock(mutex_);
        if (ending_ || eof_ || !queue_.empty()) return;
        busy_ = Busy::PONDER;
        engine_.clearStop();
    }
    engine_.ponder();
    markBusy(Busy::NONE);
}

bool Session::readBlock(const std::string& firstArgs, std::vector<std::string>& entries) {
    // More entries than any board holds are read and dropped, so junk cannot grow memory.
    constexpr size_t MAX_ENTRIES = 4 * MAX_BOARD_SIZE * MAX_BOARD_SIZE;
    auto take = [&](std::string_view text) {
        for (std::string& token : splitEntries(text)) {
            if (toUpper(token) == "DONE") return true;
            if (entries.size() < MAX_ENTRIES) entries.push_back(std::move(token));
        }
        return false;
    };
    if (take(firstArgs)) return true;
    std::string line;
    while (nextLine(line))
        if (take(line)) return true;
    return false;
}

std::optional<Pos> Session::boardPoint(std::string_view text) const {
    auto c = parseCoord(text);
    if (!c || !engine_.onBoard(c->first, c->second)) return std::nullopt;
    return Pos(c->first, c->second);
}

} // namespace moku::protocol
