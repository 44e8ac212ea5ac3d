// The Gomocup commands. TURN, BEGIN, BOARD and PLAY always end with a legal move: a manager
// scores anything else as a loss, so a move that cannot be placed is reported on a MESSAGE line
// (the only kind every manager skips) and the engine plays on.
#include "moku/protocol/format.h"
#include "session.h"

namespace moku::protocol {

void Session::cmdStart(const std::string& args) {
    auto n = parseInt(args);
    if (!n || *n < MIN_BOARD_SIZE || *n > MAX_BOARD_SIZE) {
        error("unsupported board size '" + printable(args) + "' (5..22)");
        return;
    }
    engine_.newGame(int(*n), int(*n));
    out_.line("OK");
    flushNotices();
}

void Session::cmdRectStart(const std::string& args) {
    auto c = parseCoord(args);
    if (!c || c->first < MIN_BOARD_SIZE || c->first > MAX_BOARD_SIZE ||
        c->second < MIN_BOARD_SIZE || c->second > MAX_BOARD_SIZE) {
        error("unsupported board size '" + printable(args) + "' (5..22 each way)");
        return;
    }
    engine_.newGame(c->first, c->second);
    out_.line("OK");
    flushNotices();
}

void Session::cmdRestart() {
    engine_.restart();
    out_.line("OK");
    flushNotices();
}

void Session::cmdBegin() { think(true); }

void Session::cmdTurn(const std::string& args) {
    auto p = boardPoint(args);
    if (!p || !engine_.isEmptyCell(*p)) {
        // The opponent's move is lost; answer for our own colour on the unchanged board.
        message(std::string("ERROR opponent move '") + printable(args) + "' " +
                (p ? "is on an occupied point" : "is not a point on the board") + ", ignored");
        engine_.pass();
    } else {
        engine_.play(*p);
    }
    think(true);
}

bool Session::readPosition(const std::string& firstArgs, const char* command) {
    std::vector<std::string> entries;
    if (!readBlock(firstArgs, entries)) return false;
    std::vector<engine::BoardEntry> stones;
    for (const std::string& e : entries) {
        auto v = parseBoardEntry(e);
        if (v)
            stones.push_back({(*v)[0], (*v)[1], (*v)[2]});
        else
            message(std::string("ERROR ") + command + ": ignored '" + printable(e) + "'");
    }
    engine::PositionReport report = engine_.setPosition(stones);
    for (const std::string& problem : report.problems)
        message(std::string("ERROR ") + command + ": " + problem + ", ignored");
    return true;
}

void Session::cmdBoard(const std::string& args) {
    if (!readPosition(args, "BOARD")) return;
    think(true);
}

void Session::cmdTakeBack(const std::string& args) {
    auto p = boardPoint(args);
    if (!p) {
        error("bad TAKEBACK point '" + printable(args) + "'");
        return;
    }
    try {
        engine_.takeBack(*p);
    } catch (const engine::EngineError& e) {
        error(e.what());
        return;
    }
    out_.line("OK");
}

// PLAY answers our own SUGGEST: place the move the manager chose for us and confirm it.
void Session::cmdPlay(const std::string& args) {
    auto p = boardPoint(args);
    if (p && engine_.isEmptyCell(*p)) {
        engine_.play(*p);
        out_.line(formatMove(*p));
        return;
    }
    message("ERROR PLAY move '" + printable(args) + "' cannot be played, choosing another");
    think(true);
}

void Session::cmdSwap2Board(const std::string& args) {
    std::vector<std::string> entries;
    if (!readBlock(args, entries)) return;
    std::vector<Pos> stones;
    for (const std::string& e : entries) {
        auto p = boardPoint(e);
        if (!p) {
            error("SWAP2BOARD: bad stone '" + printable(e) + "'");
            return;
        }
        stones.push_back(*p);
    }
    markBusy(Busy::THINK);
    engine::Swap2Decision d;
    try {
        d = engine_.swap2(stones);
    } catch (const engine::EngineError& e) {
        markBusy(Busy::NONE);
        error(e.what());
        return;
    }
    markBusy(Busy::NONE);
    out_.line(d.swap ? std::string("SWAP") : formatMoves(d.stones));
}

} // namespace moku::protocol
