// `pbrain-moku selfplay`: the engine facade plays both sides with a node budget per move; every
// searched position becomes a record (moku/data/selfplay_format.h). Games are grouped sixteen to
// an LZ4 frame, each frame written in one piece, so that the file is a function of the options
// and the game indices only: a resumed run reopens the last short group and writes what an
// uninterrupted run would have written.
#include "moku/app/selfplay.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <ostream>
#include <sstream>

#include "moku/app/play.h"
#include "moku/app/terminal.h"
#include "moku/data/selfplay_format.h"
#include "moku/engine/strength.h"

namespace moku::app {

namespace {

// Multi-PV width, margin and temperature of the moves drawn after the opening (the playing
// levels' draw, engine/strength.h); the policy target of those positions is a softmax of the
// same exact root scores with POLICY_TEMPERATURE.
constexpr int RANDOM_MULTI_PV = 4;
constexpr Value RANDOM_MARGIN = 120;
constexpr int RANDOM_TEMPERATURE = 60;
constexpr double POLICY_TEMPERATURE = 100;
// The transposition table of a self-play engine (KiB): plenty for a few thousand nodes a move.
constexpr int64_t HASH_KIB = 16 * 1024;

uint64_t mix(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The seed of game i: the run's seed and the index only (the seed is mixed first, so that the
// games of two shards' seeds do not meet).
uint64_t gameSeed(uint64_t seed, int game) {
    uint64_t state = seed;
    state = mix(state) + uint64_t(game) * 0xD1B54A32D192ED03ull;
    return mix(state);
}

std::string checkStones(const Opening& stones, Rule rule, int size) {
    game::Board b(size, size, rule);
    for (size_t i = 0; i < stones.size(); i++) {
        auto [x, y] = stones[i];
        std::string which = "stone " + std::to_string(i + 1) + " (" + std::to_string(x) + "," +
                            std::to_string(y) + ")";
        if (!b.onBoard(x, y)) return which + " is off the " + std::to_string(size) + "x board";
        Pos p(x, y);
        if (!b.isEmpty(p)) return which + " is on an occupied point";
        Color mover = b.sideToMove();
        Color outcome = b.outcomeIfPlayed(p, mover);
        if (outcome == mover) return which + " makes five";
        if (outcome == ~mover) return which + " is forbidden for black (renju)";
        b.move(p);
    }
    if (int(stones.size()) >= size * size - 1) return "the opening fills the board";
    return "";
}

// The image of a point under one of the eight symmetries of a square board.
std::pair<int, int> transform(std::pair<int, int> p, int t, int size) {
    auto [x, y] = p;
    if (t & 1) x = size - 1 - x;
    if (t & 2) y = size - 1 - y;
    if (t & 4) std::swap(x, y);
    return {x, y};
}

// 2 to 4 stones on distinct points within two of the centre (too few to make five or a foul).
Opening randomOpening(uint64_t& rng, int size) {
    int stones = 2 + int(mix(rng) % 3);
    int c = size / 2, r = std::min(2, c);
    Opening o;
    while (int(o.size()) < stones) {
        std::pair<int, int> p{c + int(mix(rng) % (2 * r + 1)) - r,
                              c + int(mix(rng) % (2 * r + 1)) - r};
        if (std::find(o.begin(), o.end(), p) == o.end()) o.push_back(p);
    }
    return o;
}

struct GameStats {
    int blackWins = 0, whiteWins = 0, draws = 0;
    uint64_t positions = 0;
};

class SelfplayGame {
public:
    SelfplayGame(const SelfplayOptions& o, engine::Engine& e) : o_(o), e_(e) {}

    // Plays game `index` and appends its records to `out`; returns the winner (EMPTY: a draw).
    Color play(int index, std::string& out, uint64_t& positions) {
        uint64_t seed = gameSeed(o_.seed, index);
        uint64_t rng = seed;
        Opening opening;
        if (o_.openings.empty()) {
            opening = randomOpening(rng, o_.size);
        } else {
            const Opening& chosen = o_.openings[mix(rng) % o_.openings.size()];
            int t = int(mix(rng) % 8);
            for (auto p : chosen) opening.push_back(transform(p, t, o_.size));
        }
        e_.newGame(o_.size, o_.size);
        e_.clearStop();
        records_.clear();
        Color winner = EMPTY;
        const int cells = o_.size * o_.size;
        for (int ply = 0;; ply++) {
            const int stones = int(e_.stones().size());
            if (stones == cells) break; // full board: a draw
            const bool inOpening = ply < int(opening.size());
            const bool randomise = !inOpening && ply < int(opening.size()) + o_.randomPlies;
            uint64_t span = o_.maxNodes - o_.minNodes + 1;
            e_.options().maxNodes = o_.minNodes + (span ? mix(rng) % span : mix(rng));
            const game::Board& board = e_.board();
            // The engine's first two moves of a game come without a search: nothing to record.
            bool searched = stones >= 2;
            search::SearchResult r;
            if (searched || !inOpening) r = e_.analyse(randomise ? RANDOM_MULTI_PV : 1);
            Pos move;
            if (inOpening) {
                move = Pos(opening[ply].first, opening[ply].second);
            } else {
                if (r.bestMove == POS_NONE) break; // no legal point left: a draw
                move = r.bestMove;
                if (randomise) {
                    engine::PlayingLevel level;
                    level.level = 1;
                    level.multiPV = RANDOM_MULTI_PV;
                    level.margin = RANDOM_MARGIN;
                    level.temperature = RANDOM_TEMPERATURE;
                    Pos drawn =
                        engine::pickMove(r.ranked, level, engine::moveSeed(seed, board.hash()));
                    if (drawn != POS_NONE) move = drawn;
                }
            }
            if (searched && r.bestMove != POS_NONE) record(r, inOpening, randomise);
            Color mover = e_.sideToMove();
            Ending ending = judgeMove(board, move, mover);
            e_.play(move);
            if (ending == Ending::FIVE) winner = mover;
            if (ending == Ending::FOUL) winner = ~mover;
            if (ending != Ending::NONE) break;
        }
        for (data::Record& rec : records_) {
            Color side = rec.moves.size() % 2 ? WHITE : BLACK;
            rec.result = winner == EMPTY  ? data::RESULT_DRAW
                         : winner == side ? data::RESULT_WIN
                                          : data::RESULT_LOSS;
            data::appendRecord(out, rec);
        }
        positions += records_.size();
        return winner;
    }

private:
    const SelfplayOptions& o_;
    engine::Engine& e_;
    std::vector<data::Record> records_;

    uint16_t cell(Pos p) const { return data::cellIndex(p.x(), p.y(), o_.size); }

    void record(const search::SearchResult& r, bool inOpening, bool ranked) {
        data::Record rec;
        rec.rule = uint8_t(o_.rule);
        rec.size = uint8_t(o_.size);
        Value v = r.score == VALUE_NONE ? VALUE_ZERO : r.score;
        if (isMate(v)) rec.flags |= data::FLAG_PROVEN;
        if (inOpening) rec.flags |= data::FLAG_OPENING;
        rec.value = int16_t(std::clamp(v, -data::VALUE_CLAMP, data::VALUE_CLAMP));
        rec.best = cell(r.bestMove);
        for (const engine::Stone& s : e_.stones()) rec.moves.push_back(cell(s.pos));
        // The policy target where the search ranked several root moves exactly: a softmax of
        // their scores (a proven result or a single move leaves the best move alone).
        if (ranked && r.ranked.size() > 1 && r.ranked.front().first == r.bestMove && !isMate(v) &&
            r.score != VALUE_NONE) {
            for (const auto& [p, s] : r.ranked) {
                if (s == VALUE_NONE || isMate(s)) continue;
                double w = std::exp(double(s - v) / POLICY_TEMPERATURE);
                rec.policy.push_back({cell(p), uint16_t(std::clamp(w * 65535.0, 1.0, 65535.0))});
            }
            if (rec.policy.size() < 2) rec.policy.clear();
        }
        records_.push_back(std::move(rec));
    }
};

// Reads what an existing output holds: truncates a broken tail, and finds the games written
// and where the last short group (to be rewritten with the games that follow) begins.
struct ResumePoint {
    int games = 0;        // games in the file
    uint64_t writeAt = 0; // where the next frame goes
    std::string pending;  // the records of the reopened short group
    int pendingGames = 0; // its games
    bool ok = true;
};

ResumePoint resume(const SelfplayOptions& o, std::ostream& err) {
    ResumePoint rp;
    std::error_code ec;
    if (!std::filesystem::exists(o.output, ec)) return rp;
    // The games of each frame, and a record of another rule or size, found as the records
    // stream by (a frame holds whole games, so a frame's first record starts one).
    std::vector<int> games;
    std::vector<std::string> foreign; // per frame: the first record of another game kind
    data::Record previous;
    size_t previousFrame = SIZE_MAX;
    data::ReadResult read = data::readRecordFile(o.output, [&](data::Record&& r, size_t frame) {
        if (games.size() <= frame) games.resize(frame + 1), foreign.resize(frame + 1);
        if (frame != previousFrame || !data::continuesGame(previous, r)) games[frame]++;
        if ((r.rule != uint8_t(o.rule) || r.size != o.size) && foreign[frame].empty())
            foreign[frame] = "rule " + std::to_string(r.rule) + " on " + std::to_string(r.size) +
                             "x" + std::to_string(r.size);
        previous = std::move(r);
        previousFrame = frame;
    });
    games.resize(read.frames.size());
    foreign.resize(read.frames.size());
    const std::string name = "pbrain-moku selfplay: " + o.output;
    // Something that is not a record file is never cut: only an LZ4 frame at the start that
    // does not decode (an interrupted first write) lets a file without intact frames be emptied.
    if (!read.frames.empty() && !read.frames[0].intact) {
        char magic[4] = {};
        std::ifstream(o.output, std::ios::binary).read(magic, 4);
        if (read.frames[0].decoded || std::memcmp(magic, "\x04\x22\x4D\x18", 4) != 0) {
            err << name << " is not a self-play record file (its start is not a frame of "
                << "records); it is left alone\n";
            rp.ok = false;
            return rp;
        }
    }
    if (!read.complete) {
        for (const std::string& p : read.problems) err << "pbrain-moku selfplay: " << p << "\n";
        std::filesystem::resize_file(o.output, read.intactBytes, ec);
        if (ec) {
            err << name << ": cannot truncate it to its intact frames: " << ec.message() << "\n";
            rp.ok = false;
            return rp;
        }
        err << name << ": truncated to its intact frames (" << read.intactBytes << " bytes)\n";
    }
    // The leading intact frames are what the file keeps.
    size_t intact = 0;
    while (intact < read.frames.size() && read.frames[intact].intact) intact++;
    for (size_t f = 0; f < intact; f++) {
        if (!foreign[f].empty()) {
            err << name << " holds games of " << foreign[f] << ", not rule " << int(o.rule)
                << " on " << o.size << "x" << o.size << "\n";
            rp.ok = false;
            return rp;
        }
        rp.games += games[f];
    }
    rp.writeAt = read.intactBytes;
    if (intact == 0) return rp;
    // A short last group (the end of an earlier run) is reopened, as one run would have
    // written its games in one frame with those that follow.
    const data::FrameInfo& last = read.frames[intact - 1];
    int lastGames = games[intact - 1];
    if (lastGames < o.gamesPerFrame && rp.games % o.gamesPerFrame == lastGames) {
        std::ifstream in(o.output, std::ios::binary);
        std::string bytes(last.bytes, '\0');
        in.seekg(std::streamoff(last.offset));
        in.read(bytes.data(), std::streamsize(bytes.size()));
        data::ReadResult frame = data::readRecords(bytes, o.output);
        if (!in || !frame.complete) {
            err << name << ": cannot read its last frame again\n";
            rp.ok = false;
            return rp;
        }
        rp.writeAt = last.offset;
        rp.pendingGames = lastGames;
        for (const data::Record& r : frame.records) data::appendRecord(rp.pending, r);
    }
    return rp;
}

std::string rate(double count, double seconds) {
    std::ostringstream s;
    s.precision(count / std::max(seconds, 1e-9) < 10 ? 2 : 0);
    s << std::fixed << count / std::max(seconds, 1e-9);
    return s.str();
}

} // namespace

std::string parseOpening(std::string_view line, Rule rule, int size, Opening& out) {
    out.clear();
    std::string text;
    for (char c : line)
        if (!std::isspace(static_cast<unsigned char>(c))) text += char(std::tolower(c));
    if (text.empty()) return "an empty opening";
    if (text.find(',') != std::string::npos) {
        // offset: "x,y, x,y, ..." from the centre
        std::vector<int> numbers;
        std::stringstream ss(text);
        std::string item;
        while (std::getline(ss, item, ',')) {
            size_t used = 0;
            int v = 0;
            try {
                v = std::stoi(item, &used);
            } catch (...) {
                used = 0;
            }
            if (item.empty() || used != item.size()) return "'" + item + "' is not a number";
            numbers.push_back(v);
        }
        if (numbers.size() % 2) return "an odd count of coordinates";
        for (size_t i = 0; i < numbers.size(); i += 2)
            out.push_back({size / 2 + numbers[i], size / 2 + numbers[i + 1]});
    } else {
        // pos: a letter (x from a) and a number (y + 1) per stone
        size_t i = 0;
        while (i < text.size()) {
            char letter = text[i++];
            if (letter < 'a' || letter > 'z') return std::string("unexpected '") + letter + "'";
            size_t start = i;
            int row = 0;
            while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) &&
                   i - start < 3)
                row = row * 10 + (text[i++] - '0');
            if (i == start) return std::string("no row number after '") + letter + "'";
            out.push_back({letter - 'a', row - 1});
        }
    }
    std::string problem = checkStones(out, rule, size);
    if (!problem.empty()) out.clear();
    return problem;
}

std::string loadOpenings(const std::string& path, Rule rule, int size, std::vector<Opening>& out) {
    std::ifstream in(path);
    if (!in) return path + ": cannot open the file";
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        number++;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        Opening o;
        std::string problem = parseOpening(line, rule, size, o);
        if (!problem.empty()) return path + ":" + std::to_string(number) + ": " + problem;
        out.push_back(std::move(o));
    }
    if (out.empty()) return path + ": no opening in the file";
    return "";
}

int runSelfplay(const SelfplayOptions& o, const engine::EngineOptions& engineOptions,
                const eval::ClassicalConfig& classical, const search::SearchParams& search,
                std::ostream& err) {
    const std::string name = "pbrain-moku selfplay: " + o.output;
    ResumePoint rp = resume(o, err);
    if (!rp.ok) return 1;
    if (rp.games >= o.games) {
        err << name << " is already complete (" << rp.games << " games)\n";
        return 0;
    }
    std::fstream file(o.output, std::ios::binary | std::ios::in | std::ios::out);
    if (!file) file.open(o.output, std::ios::binary | std::ios::out | std::ios::trunc);
    if (!file) {
        err << name << ": cannot write the file: " << std::strerror(errno) << "\n";
        return 1;
    }
    if (rp.games > 0)
        err << name << ": resuming after " << rp.games << " games"
            << (rp.pendingGames
                    ? " (rewriting the last frame's " + std::to_string(rp.pendingGames) + ")"
                    : "")
            << "\n";

    engine::Engine e;
    e.options() = engineOptions;
    e.options().time = {int64_t(24) * 3600 * 1000, 0, std::numeric_limits<int32_t>::max(), 0};
    e.options().maxDepth = 0;
    e.options().threads = o.threads;
    e.options().hashKiB = HASH_KIB;
    // A memory limit far above the table, so that the table is always HASH_KIB: sized from the
    // process's measured memory (the engine's default) it could vary, and so would the games.
    e.options().maxMemoryBytes = int64_t(1) << 40;
    e.options().strength = 100;
    e.options().pondering = false;
    e.setClassicalConfig(classical);
    e.setSearchParams(search);
    e.setRule(o.rule);

    SelfplayGame game(o, e);
    GameStats stats;
    std::string pending = std::move(rp.pending);
    int pendingGames = rp.pendingGames;
    uint64_t writeAt = rp.writeAt;
    std::error_code sizeError;
    uint64_t fileEnd = std::filesystem::file_size(o.output, sizeError);
    if (sizeError) fileEnd = 0;
    const int newGames = o.games - rp.games;
    int stoppedAt = 0; // the games in the file when a stop request ended the run
    Progress progress(err, o.progress, newGames);
    auto start = std::chrono::steady_clock::now();
    auto seconds = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    for (int g = rp.games; g < o.games; g++) {
        Color winner = game.play(g, pending, stats.positions);
        // The network choice (or why there is none), said once.
        for (const std::string& note : e.takeNotices()) {
            progress.clear();
            err << "pbrain-moku selfplay: " << note << "\n";
        }
        (winner == BLACK ? stats.blackWins : winner == WHITE ? stats.whiteWins : stats.draws)++;
        pendingGames++;
        const bool stopping = o.stopRequested && g + 1 < o.games && o.stopRequested();
        if (stopping) stoppedAt = g + 1;
        if (pendingGames == o.gamesPerFrame || g + 1 == o.games || stopping) {
            std::string frame = data::compressFrame(pending);
            file.seekp(std::streamoff(writeAt));
            file.write(frame.data(), std::streamsize(frame.size()));
            file.flush();
            // A rewritten last frame that came out shorter than the old one: cut the rest (with
            // the file closed, which Windows needs).
            std::error_code ec;
            const uint64_t end = writeAt + frame.size();
            if (file && end < fileEnd) {
                file.close();
                std::filesystem::resize_file(o.output, end, ec);
                file.open(o.output, std::ios::binary | std::ios::in | std::ios::out);
            }
            fileEnd = end;
            if (!file || ec) {
                progress.clear();
                err << name << ": write failed after " << g + 1 << " games"
                    << (ec ? ": " + ec.message() : "") << "\n";
                return 1;
            }
            writeAt += frame.size();
            pending.clear();
            pendingGames = 0;
        }
        int done = g + 1 - rp.games;
        progress.update(done, std::to_string(stats.positions) + " positions, " +
                                  rate(double(stats.positions), seconds()) + " positions/s");
        if (stopping) break;
    }
    progress.finish();
    double s = seconds();
    const int inFile = stoppedAt ? stoppedAt : o.games, played = inFile - rp.games;
    if (stoppedAt)
        err << name << ": stopped after " << stoppedAt << " of " << o.games
            << " games; the same command resumes it\n";
    err << "selfplay: " << played << " games (" << inFile << " in " << o.output << "), "
        << stats.positions << " positions; black won " << stats.blackWins << ", white won "
        << stats.whiteWins << ", drawn " << stats.draws << "; " << rate(played, s) << " games/s, "
        << rate(double(stats.positions), s) << " positions/s\n";
    return 0;
}

} // namespace moku::app
