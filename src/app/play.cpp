// The terminal game: a read-eval loop over the engine facade. Moku's moves come from
// Engine::analyse, exactly as a protocol search; both sides' moves go through judgeMove and
// Engine::play, and undo through Engine::takeBack.
#include "moku/app/play.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <istream>
#include <limits>
#include <ostream>
#include <vector>

#include "moku/protocol/parser.h"

namespace moku::app {

std::optional<Rule> ruleFromOption(std::string_view text) {
    std::string name = protocol::toLower(protocol::trim(text));
    if (auto r = ruleFromName(name)) return r;
    if (auto n = protocol::parseInt(name); n && *n >= 0 && *n <= 9) return ruleFromGomocup(int(*n));
    return std::nullopt;
}

std::optional<std::pair<int, int>> parsePoint(std::string_view text) {
    text = protocol::trim(text);
    if (text.find(',') != std::string_view::npos) return protocol::parseCoord(text);
    if (text.size() < 2 || text.size() > 4) return std::nullopt;
    char letter = char(text[0] | 0x20); // lower case
    if (letter < 'a' || letter > 'z') return std::nullopt;
    int row = 0;
    for (char c : text.substr(1)) {
        if (c < '0' || c > '9') return std::nullopt;
        row = row * 10 + (c - '0');
    }
    return std::pair{letter - 'a', row - 1};
}

std::string pointName(Pos p) { return char('a' + p.x()) + std::to_string(p.y() + 1); }

std::string winRateText(Value v) {
    if (v == VALUE_NONE) return "unknown";
    if (v >= VALUE_MATE_IN_MAX_PLY)
        return "100% (a forced win within " + std::to_string(VALUE_MATE - v) + " plies)";
    if (v <= VALUE_MATED_IN_MAX_PLY)
        return "0% (a forced loss within " + std::to_string(VALUE_MATE + v) + " plies)";
    // Short of a mate nothing is certain: keep 0% and 100% for the mates.
    double rate = std::clamp(100.0 / (1.0 + std::exp(-v / 200.0)), 0.1, 99.9);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.1f%%", rate);
    return buf;
}

Ending judgeMove(const game::Board& board, Pos p, Color mover) {
    game::Board b = board; // the renju test moves stones temporarily
    Color winner = b.outcomeIfPlayed(p, mover);
    if (winner == mover) return Ending::FIVE;
    if (winner == ~mover) return Ending::FOUL;
    if (b.stoneCount() + 1 == b.width() * b.height()) return Ending::FULL_BOARD;
    return Ending::NONE;
}

namespace {

const char* const HELP = "Moves: a column letter and a row number (h8), or x,y from 0 (7,7).\n"
                         "Commands:\n"
                         "  undo   take back your last move and Moku's answer\n"
                         "  hint   Moku suggests a move for you\n"
                         "  board  draw the board again\n"
                         "  new    start a new game\n"
                         "  quit   leave (so does the end of the input)\n"
                         "  help   this text\n";

class Game {
public:
    Game(std::istream& in, std::ostream& out, const PlayOptions& options)
        : lines_(in, 1024), out_(out), o_(options) {}

    engine::Engine& engine() { return engine_; }

    int run() {
        out_ << "Moku " << MOKU_VERSION << ": " << ruleName(o_.rule) << " on " << o_.size << "x"
             << o_.size << "; you play " << colourName(o_.human) << " (" << stone(o_.human)
             << "), Moku " << colourName(~o_.human) << " (" << stone(~o_.human) << "), "
             << o_.moveTimeMs << " ms a move"
             << (o_.strength < 100 ? ", strength " + std::to_string(o_.strength) : "")
             << ". Type help for the commands.\n";
        newGame();
        for (;;) {
            if (!over_ && engine_.sideToMove() != o_.human) {
                engineMove();
                continue;
            }
            out_ << (over_ ? "game over" : "your move, " + colourName(o_.human)) << "> "
                 << std::flush;
            std::string line;
            if (!lines_.next(line)) {
                out_ << "\n";
                return 0;
            }
            if (o_.echoInput) out_ << protocol::printable(line, 80) << "\n";
            std::string word = protocol::toLower(protocol::trim(line));
            if (word.empty()) continue;
            if (word == "quit" || word == "exit") return 0;
            if (word == "help" || word == "?")
                out_ << HELP;
            else if (word == "new")
                newGame();
            else if (word == "board")
                draw();
            else if (word == "undo")
                undo();
            else if (word == "hint")
                hint();
            else
                humanMove(line);
        }
    }

private:
    protocol::LineReader lines_;
    std::ostream& out_;
    PlayOptions o_;
    engine::Engine engine_;
    bool over_ = false;

    static std::string colourName(Color c) { return c == BLACK ? "black" : "white"; }
    static char stone(Color c) { return c == BLACK ? 'X' : 'O'; }

    void newGame() {
        engine_.setRule(o_.rule);
        engine_.newGame(o_.size, o_.size);
        for (const std::string& n : engine_.takeNotices()) out_ << "note: " << n << "\n";
        over_ = false;
        out_ << "New game.\n";
        draw();
    }

    // Rows top to bottom from 1 (y = 0, as the protocol's 0,0 is the top-left corner); the
    // last move in brackets.
    void draw() {
        const game::Board& b = engine_.board();
        Pos last = engine_.stones().empty() ? POS_NONE : engine_.stones().back().pos;
        std::string letters = "   ";
        for (int x = 0; x < b.width(); x++) letters += std::string(" ") + char('a' + x) + " ";
        letters.pop_back();
        out_ << letters << "\n";
        for (int y = 0; y < b.height(); y++) {
            char label[16];
            std::snprintf(label, sizeof label, "%2d", y + 1);
            std::string row = label + std::string(" ");
            for (int x = 0; x < b.width(); x++) {
                Pos p(x, y);
                Color c = b.piece(p);
                bool isLast = p == last;
                row += isLast ? '[' : ' ';
                if (c == EMPTY)
                    row += o_.colour ? "\x1b[2m.\x1b[0m" : ".";
                else if (o_.colour)
                    row += std::string(c == BLACK ? "\x1b[1;31m" : "\x1b[1;36m") + stone(c) +
                           "\x1b[0m";
                else
                    row += stone(c);
                row += isLast ? ']' : ' ';
            }
            out_ << row << label << "\n";
        }
        out_ << letters << "\n";
    }

    // Places p for the side to move, which the caller has checked is an empty point, and
    // announces the end of the game if it comes.
    void place(Pos p) {
        Color mover = engine_.sideToMove();
        Ending ending = judgeMove(engine_.board(), p, mover);
        engine_.play(p);
        if (ending == Ending::NONE) return;
        draw();
        if (ending == Ending::FIVE)
            out_ << "Five in a row: " << (mover == o_.human ? "you win" : "Moku wins") << ".\n";
        else if (ending == Ending::FOUL)
            out_ << pointName(p) << " is forbidden for black under renju (a foul): "
                 << (mover == o_.human ? "Moku wins" : "you win") << ".\n";
        else
            out_ << "The board is full: a draw.\n";
        gameOver();
    }

    void gameOver() {
        over_ = true;
        out_ << "Game over. Type new for another game, undo to take your move back, or quit.\n";
    }

    void engineMove() {
        out_ << "Moku is thinking...\n" << std::flush;
        search::SearchResult r = engine_.analyse(1);
        if (r.bestMove == POS_NONE) {
            out_ << "Moku has no legal move left: a draw.\n";
            gameOver();
            return;
        }
        out_ << "Moku plays " << pointName(r.bestMove) << " (" << posToString(r.bestMove) << "), "
             << (r.depth > 0 ? "depth " + std::to_string(r.depth) + ", " : "") << "Moku's win-rate "
             << winRateText(r.score) << "\n";
        place(r.bestMove);
        if (!over_) draw();
    }

    void humanMove(const std::string& text) {
        if (over_) {
            out_ << "The game is over: type new, undo or quit.\n";
            return;
        }
        auto xy = parsePoint(text);
        if (!xy) {
            out_ << "'" << protocol::printable(text) << "' is neither a move (h8 or 7,7) nor a "
                 << "command; type help.\n";
            return;
        }
        if (!engine_.onBoard(xy->first, xy->second)) {
            out_ << "'" << protocol::printable(text) << "' is off the " << o_.size << "x" << o_.size
                 << " board (a1 to " << char('a' + o_.size - 1) << o_.size << ").\n";
            return;
        }
        Pos p(xy->first, xy->second);
        if (!engine_.isEmptyCell(p)) {
            out_ << pointName(p) << " is taken; choose an empty point.\n";
            return;
        }
        out_ << "You play " << pointName(p) << " (" << posToString(p) << ").\n";
        place(p);
    }

    // Takes back moves until one of the human's is gone: the human is to move again.
    void undo() {
        const std::vector<engine::Stone>& stones = engine_.stones();
        auto mine = std::find_if(stones.rbegin(), stones.rend(),
                                 [&](const engine::Stone& s) { return s.color == o_.human; });
        if (mine == stones.rend()) {
            out_ << "Nothing of yours to take back.\n";
            return;
        }
        std::string taken;
        while (!stones.empty()) {
            engine::Stone s = stones.back();
            engine_.takeBack(s.pos);
            taken += (taken.empty() ? "" : " and ") + pointName(s.pos);
            if (s.color == o_.human) break;
        }
        over_ = false;
        out_ << "Took back " << taken << ".\n";
        draw();
    }

    void hint() {
        if (over_) {
            out_ << "The game is over: type new, undo or quit.\n";
            return;
        }
        out_ << "Moku is thinking for you...\n" << std::flush;
        // A hint is Moku's best, whatever level it plays at.
        int strength = engine_.options().strength;
        engine_.options().strength = 100;
        search::SearchResult r = engine_.analyse(1);
        engine_.options().strength = strength;
        if (r.bestMove == POS_NONE) {
            out_ << "No legal move is left.\n";
            return;
        }
        out_ << "Hint: " << pointName(r.bestMove) << " (" << posToString(r.bestMove)
             << "), your win-rate " << winRateText(r.score) << "\n";
    }
};

} // namespace

int runPlay(std::istream& in, std::ostream& out, const engine::EngineOptions& engineOptions,
            const eval::ClassicalConfig& classical, const search::SearchParams& search,
            const PlayOptions& options) {
    Game game(in, out, options);
    engine::Engine& e = game.engine();
    e.options() = engineOptions;
    e.options().time = {options.moveTimeMs, 0, std::numeric_limits<int32_t>::max()};
    e.options().pondering = false;
    e.options().strength = options.strength;
    e.setClassicalConfig(classical);
    e.setSearchParams(search);
    return game.run();
}

} // namespace moku::app
