// The Yixin-Board extension: positions without thinking, forbidden points, n-best analysis.
#include "moku/protocol/format.h"
#include "session.h"

namespace moku::protocol {

void Session::cmdYxBoard(const std::string& args) { readPosition(args, "YXBOARD"); }

void Session::cmdYxShowForbid() { out_.line(formatForbid(engine_.forbiddenPoints())); }

// Ranks the N best moves (progress lines per depth and line), then answers with the best move
// without playing it.
void Session::cmdYxNBest(const std::string& args) {
    auto n = parseInt(args);
    if (!n || *n < 1) {
        error("YXNBEST needs a positive count, got '" + printable(args) + "'");
        return;
    }
    int count = int(std::min<int64_t>(*n, MAX_BOARD_SIZE * MAX_BOARD_SIZE));
    bool multi = count > 1;
    markBusy(Busy::THINK);
    search::SearchResult r;
    try {
        r = engine_.analyse(
            count, [&](const search::IterationInfo& info) { reportIteration(info, multi); });
    } catch (...) {
        markBusy(Busy::NONE);
        throw;
    }
    markBusy(Busy::NONE);
    if (multi && !r.ranked.empty()) {
        std::string s = "MESSAGE nbest";
        for (const auto& [move, value] : r.ranked) {
            s += ' ';
            s += formatMove(move);
            s += ' ';
            s += formatScore(value);
        }
        out_.line(s);
    }
    if (r.bestMove == POS_NONE)
        answerWithoutLegalMove(false);
    else
        out_.line(formatMove(r.bestMove));
}

void Session::cmdYxHashClear() { engine_.clearHash(); }

void Session::cmdYxShowInfo() {
    out_.line("MESSAGE INFO MAX_THREAD_NUM " + std::to_string(engine::MAX_THREADS));
    out_.line("MESSAGE INFO MAX_HASH_SIZE " + std::to_string(engine::MAX_HASH_KIB));
}

} // namespace moku::protocol
