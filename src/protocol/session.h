// One protocol session: the command queue between the reader thread and the thread that runs
// commands, the thread-safe output, and the command handlers.
//
// Map: session.cpp (queue, urgent commands, dispatch, thinking and pondering),
// commands_game.cpp (START ... SWAP2BOARD, the Gomocup commands), commands_info.cpp (INFO),
// commands_yixin.cpp (the YX* commands), protocol.cpp (runProtocol: the threads).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "moku/engine/engine.h"
#include "moku/protocol/parser.h"
#include "moku/protocol/protocol.h"

namespace moku::protocol {

// Writes whole lines, flushed, from any thread; after close() it writes nothing.
class Output {
public:
    explicit Output(std::ostream& os) : os_(os) {}
    void line(std::string_view text);
    void close();

private:
    std::mutex mutex_;
    std::ostream& os_;
    bool closed_ = false;
};

class Session {
public:
    Session(std::ostream& out, const Options& options);

    // Reader side. Returns false once the reader must stop (after END). `received`: when the
    // line was read (a move's time counts from there).
    bool onLine(const std::string& line,
                std::chrono::steady_clock::time_point received = std::chrono::steady_clock::now());
    void onEof();
    // After END: waits until run() has returned, granting each search graceMs to return (a
    // backstop twenty times as long to the other commands). On time-out it closes the output
    // (nothing more is printed) and returns false.
    bool waitFinished(int graceMs);

    // Command side: runs commands until the queue is empty after END or the end of the input.
    void run();

private:
    enum class Busy { NONE, THINK, PONDER };

    Output out_;
    Options options_;
    engine::Engine engine_;

    std::mutex mutex_;
    std::condition_variable cv_;
    struct Queued {
        std::string line;
        std::chrono::steady_clock::time_point received; // a move's time counts from here
    };
    std::deque<Queued> queue_;
    bool eof_ = false;
    bool ending_ = false; // END was read: answer the queue with minimal searches, then return
    bool finished_ = false;
    uint64_t changes_ = 0; // searches started and ended, commands run (for waitFinished)
    Busy busy_ = Busy::NONE;

    // Whether a command waits that is more than INFO, ABOUT, YXSHOWFORBID or YXSHOWINFO (a
    // turn, most likely), or the input ended: the hash table's pages wait (Engine::prepareHash).
    bool turnWaiting();
    // After an INFO that changes what the table's size depends on: re-planned, and its pages
    // made resident until a turn waits (Engine::prepareHash; `limitTold`: a memory bound came).
    void prepareHash(bool limitTold = false) {
        engine_.prepareHash([this] { return turnWaiting(); }, limitTold);
    }
    // The next command line read (and when it was read, where `received` is given).
    bool nextLine(std::string& line, std::chrono::steady_clock::time_point* received = nullptr);
    void dispatch(const std::string& line);
    void message(const std::string& text) { out_.line("MESSAGE " + text); }
    void error(const std::string& text) { out_.line("ERROR " + text); }
    // The engine's notices (e.g. which network evaluates the game) as MESSAGE lines.
    void flushNotices() {
        for (const std::string& n : engine_.takeNotices()) message(n);
    }

    // Thinking with the reader able to stop it (YXSTOP, END), then the move.
    void think(bool playMove);
    // The answer when the side to move has no legal point: ERROR on a full board; otherwise
    // (renju, black, every empty point forbidden) a forbidden point, played when playMove, with
    // a MESSAGE saying why. Renju lets black pass there, which the protocol cannot express, and
    // a manager left without a move waits or scores a time loss (c-gomoku-cli may hang).
    void answerWithoutLegalMove(bool playMove);
    void reportIteration(const search::IterationInfo& info, bool multiPV);
    void maybePonder();
    void markBusy(Busy busy);

    // The entries of a block (BOARD, YXBOARD, SWAP2BOARD) up to DONE: the tokens after the
    // command word on its own line first. False when the input ended inside the block.
    bool readBlock(const std::string& firstArgs, std::vector<std::string>& entries);
    bool readPosition(const std::string& firstArgs, const char* command);
    // A point on the board from "x,y"; nullopt (and nothing printed) when malformed/off board.
    std::optional<Pos> boardPoint(std::string_view text) const;

    void cmdStart(const std::string& args);
    void cmdRectStart(const std::string& args);
    void cmdRestart();
    void cmdBegin();
    void cmdTurn(const std::string& args);
    void cmdBoard(const std::string& args);
    void cmdTakeBack(const std::string& args);
    void cmdPlay(const std::string& args);
    void cmdSwap2Board(const std::string& args);
    void cmdInfo(const std::string& args);
    // INFO's table (commands_info.cpp): every key with its setter and meaning.
    struct InfoValue;
    struct InfoKey;
    static const InfoKey INFO_KEYS[];
    friend std::vector<InfoKeyDoc> infoKeys();
    void badInfoValue(const InfoValue& v);
    engine::EngineOptions& engineOptions() { return engine_.options(); }
    void cmdYxBoard(const std::string& args);
    void cmdYxShowForbid();
    void cmdYxNBest(const std::string& args);
    void cmdYxHashClear();
    void cmdYxShowInfo();
};

} // namespace moku::protocol
