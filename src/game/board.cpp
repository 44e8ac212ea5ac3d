#include "moku/game/board.h"

#include <cstring>
#include <sstream>

namespace moku::game {

namespace {

struct Zobrist {
    uint64_t stone[COLOR_NB][CELL_NB];
    uint64_t side;

    Zobrist() {
        uint64_t s = 0x9E3779B97F4A7C15ull;
        auto next = [&] { // splitmix64: fixed seed, so hashes are the same on every run
            uint64_t z = (s += 0x9E3779B97F4A7C15ull);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            return z ^ (z >> 31);
        };
        for (auto& row : stone)
            for (auto& k : row) k = next();
        side = next();
    }
};

const Zobrist ZOBRIST;

} // namespace

uint64_t zobristKey(Color c, Pos p) { return ZOBRIST.stone[c][p.idx]; }
uint64_t zobristSide() { return ZOBRIST.side; }

uint64_t Board::hashAfter(Pos p) const {
    return hash_ ^ ZOBRIST.stone[side_][p.idx] ^ ZOBRIST.side;
}

Board::Board(int width, int height, Rule rule, CandidateRange range)
    : width_(width), height_(height), rule_(rule) {
    if (width < MIN_BOARD_SIZE || height < MIN_BOARD_SIZE || width > MAX_BOARD_SIZE ||
        height > MAX_BOARD_SIZE)
        throw BoardError("board size " + std::to_string(width) + "x" + std::to_string(height) +
                         " is outside " + std::to_string(MIN_BOARD_SIZE) + ".." +
                         std::to_string(MAX_BOARD_SIZE));
    if (range.square < 0 || range.square > BOARD_PAD - 1 || range.lineReach < 0 ||
        range.lineReach > BOARD_PAD - 1)
        throw BoardError("candidate range must lie within 0..4");
    tables_ = &patternTables(rule);

    for (int dy = -range.square; dy <= range.square; dy++)
        for (int dx = -range.square; dx <= range.square; dx++)
            if (dx || dy) candidateOffsets_.push_back(dy * STRIDE + dx);
    for (int dist = range.square + 1; dist <= range.lineReach; dist++)
        for (int d = 0; d < DIR_NB; d++) {
            candidateOffsets_.push_back(DIRECTION[d] * dist);
            candidateOffsets_.push_back(-DIRECTION[d] * dist);
        }

    for (int i = 0; i < CELL_NB; i++) {
        Cell& c = cells_[i];
        int x = i % STRIDE - BOARD_PAD, y = i / STRIDE - BOARD_PAD;
        c.piece = onBoard(x, y) ? EMPTY : WALL;
        c.candidates = 0;
        c.p4[BLACK] = c.p4[WHITE] = NONE;
        c.pcode[BLACK] = c.pcode[WHITE] = 0;
        for (auto& side : c.pattern)
            for (Pattern& pt : side) pt = DEAD;
    }
    // Line keys from scratch: every off-board cell reads as a wall.
    for (int d = 0; d < DIR_NB; d++)
        for (int i = 0; i < CELL_NB; i++) {
            uint32_t key = 0;
            for (int k = -5; k <= 5; k++) {
                int j = i + k * DIRECTION[d];
                if (k == 0) continue;
                Color c = j >= 0 && j < CELL_NB ? cells_[j].piece : WALL;
                key |= cellBits(c) << lineKeyShift(k);
            }
            keys_[d][i] = key;
        }
    std::memset(p4Count_, 0, sizeof(p4Count_));
    for (int i = 0; i < CELL_NB; i++)
        if (cells_[i].piece == EMPTY) refreshCell(Pos(i));
}

void Board::setLinePatterns(Cell& c, int d, uint8_t both) {
    c.pattern[BLACK][d] = Pattern(both & 15);
    c.pattern[WHITE][d] = Pattern(both >> 4);
}

// pcode and Pattern4 of an empty cell from its line patterns, for one colour or both.
void Board::deriveSide(Cell& c, Color s) const {
    c.pcode[s] = pcodeOf(c.pattern[s][0], c.pattern[s][1], c.pattern[s][2], c.pattern[s][3]);
    c.p4[s] = Pattern4(tables_->p4[s][c.pcode[s]]);
}

void Board::derive(Cell& c) const {
    for (int s = 0; s < COLOR_NB; s++) deriveSide(c, Color(s));
}

// Adds (sign 1) or removes (sign -1) one colour's share of an empty cell in the board-wide
// counts and sums, or both colours' shares.
void Board::accountSide(const Cell& c, Color s, int sign) {
    p4Count_[s][c.p4[s]] += sign;
    if (scores_) addScores(c, s, sign);
}

void Board::account(const Cell& c, int sign) {
    for (int s = 0; s < COLOR_NB; s++) accountSide(c, Color(s), sign);
}

// derive() and the counts for one colour of a counted empty cell whose patterns changed.
void Board::rederive(Cell& c, Color s) {
    accountSide(c, s, -1);
    deriveSide(c, s);
    accountSide(c, s, 1);
}

// Recomputes everything about an empty cell that is not yet counted, and counts it.
void Board::refreshCell(Pos q) {
    Cell& c = cells_[q.idx];
    for (int d = 0; d < DIR_NB; d++) setLinePatterns(c, d, tables_->line[keys_[d][q.idx]]);
    derive(c);
    account(c, 1);
}

void Board::addScores(const Cell& c, Color s, int sign) {
    scoreSum_[s][0] += sign * scores_->score[s][0][c.pcode[s]];
    scoreSum_[s][1] += sign * scores_->score[s][1][c.pcode[s]];
}

void Board::setScoreTable(const CellScoreTable* table) {
    std::vector<std::pair<Pos, Color>> stones;
    for (const Undo& u : history_)
        if (u.pos != POS_PASS) stones.push_back({u.pos, cells_[u.pos.idx].piece});
    for (auto it = stones.rbegin(); it != stones.rend(); ++it) remove(it->first);
    scores_ = table;
    std::memset(scoreSum_, 0, sizeof(scoreSum_));
    if (scores_)
        for (int i = 0; i < CELL_NB; i++)
            if (cells_[i].piece == EMPTY)
                for (int c = 0; c < COLOR_NB; c++) addScores(cells_[i], Color(c), 1);
    for (auto [p, col] : stones) place(p, col);
}

void Board::place(Pos p, Color col) {
    PlaceLog& log = placeLog_.emplace_back();
    log.firstSaved = uint32_t(saved_.size());
    std::memcpy(log.p4Count, p4Count_, sizeof(p4Count_));
    std::memcpy(log.scoreSum, scoreSum_, sizeof(scoreSum_));
    Cell& c = cells_[p.idx];
    save(p.idx);
    account(c, -1);
    c.piece = col;
    c.p4[BLACK] = c.p4[WHITE] = NONE;
    uint32_t bits = cellBits(col);
    for (int d = 0; d < DIR_NB; d++) {
        for (int k = -5; k <= 5; k++) {
            if (k == 0) continue;
            int q = p.idx + k * DIRECTION[d];
            // p lies -k steps from q along d.
            keys_[d][q] |= bits << lineKeyShift(-k);
            Cell& n = cells_[q];
            if (n.piece != EMPTY) continue;
            // Most cells' line patterns survive a stone a few cells away: then nothing derived
            // from them changes either.
            uint8_t both = tables_->line[keys_[d][q]];
            uint8_t old = n.pattern[BLACK][d] | n.pattern[WHITE][d] << 4;
            if (both == old) continue;
            save(q);
            setLinePatterns(n, d, both);
            // Often only one colour's pattern changed: only its pcode, Pattern4 and scores move.
            for (int s = 0; s < COLOR_NB; s++)
                if ((both ^ old) >> (4 * s) & 15) rederive(n, Color(s));
        }
    }
    for (int off : candidateOffsets_) cells_[p.idx + off].candidates++;
    hash_ ^= ZOBRIST.stone[col][p.idx];
    stones_++;
}

// Takes back the last placed stone, p, from its log entry.
void Board::remove(Pos p) {
    Color col = cells_[p.idx].piece;
    for (int d = 0; d < DIR_NB; d++)
        for (int k = -5; k <= 5; k++)
            if (k) keys_[d][p.idx + k * DIRECTION[d]] &= ~(3u << lineKeyShift(-k));
    for (int off : candidateOffsets_) cells_[p.idx + off].candidates--;
    // The saved cells (p's own among them) hold their candidate counts from before the stone
    // too, so restoring them after the counts above keeps the two in agreement.
    const PlaceLog& log = placeLog_.back();
    for (size_t i = log.firstSaved; i < saved_.size(); i++) cells_[saved_[i].idx] = saved_[i].cell;
    saved_.resize(log.firstSaved);
    std::memcpy(p4Count_, log.p4Count, sizeof(p4Count_));
    std::memcpy(scoreSum_, log.scoreSum, sizeof(scoreSum_));
    placeLog_.pop_back();
    hash_ ^= ZOBRIST.stone[col][p.idx];
    stones_--;
}

void Board::move(Pos p) { move(p, side_); }

void Board::move(Pos p, Color col) {
    if (col != BLACK && col != WHITE) throw BoardError("a move needs a black or white stone");
    if (p == POS_PASS) {
        history_.push_back({p, side_, winner_});
        if (side_ == col) hash_ ^= ZOBRIST.side;
        side_ = ~col;
        return;
    }
    if (!onBoard(p)) throw BoardError("move " + posToString(p) + " is off the board");
    if (cells_[p.idx].piece != EMPTY) throw BoardError("move " + posToString(p) + " is occupied");
    history_.push_back({p, side_, winner_});
    if (winner_ == EMPTY && cells_[p.idx].p4[col] == A_FIVE) winner_ = col;
    place(p, col);
    // The hash carries the side to move: toggle it when the side changes.
    if (side_ != ~col) hash_ ^= ZOBRIST.side;
    side_ = ~col;
}

void Board::undo() {
    if (history_.empty()) throw BoardError("no move to take back");
    Undo u = history_.back();
    history_.pop_back();
    if (u.pos != POS_PASS) remove(u.pos);
    if (side_ != u.side) hash_ ^= ZOBRIST.side;
    side_ = u.side;
    winner_ = u.winner;
}

Pos Board::lastMove(int back) const {
    int i = int(history_.size()) - 1 - back;
    return i >= 0 ? history_[i].pos : POS_NONE;
}

std::vector<Pos> Board::moves() const {
    std::vector<Pos> out;
    out.reserve(history_.size());
    for (const Undo& u : history_) out.push_back(u.pos);
    return out;
}

bool Board::isLegal(Pos p) {
    if (!isEmpty(p)) return false;
    return !(side_ == BLACK && isForbidden(p));
}

std::vector<Pos> Board::candidates() const {
    std::vector<Pos> out;
    for (int y = 0; y < height_; y++)
        for (int x = 0; x < width_; x++)
            if (isCandidate(Pos(x, y))) out.push_back(Pos(x, y));
    return out;
}

std::vector<Pos> Board::emptyCells() const {
    std::vector<Pos> out;
    for (int y = 0; y < height_; y++)
        for (int x = 0; x < width_; x++)
            if (cells_[Pos(x, y).idx].piece == EMPTY) out.push_back(Pos(x, y));
    return out;
}

std::string Board::checkConsistency() const {
    std::ostringstream err;
    int count[COLOR_NB][PATTERN4_NB] = {};
    int32_t sums[COLOR_NB][2] = {};
    uint64_t hash = side_ == WHITE ? ZOBRIST.side : 0;
    int stones = 0;
    for (int i = 0; i < CELL_NB; i++) {
        const Cell& c = cells_[i];
        Pos p(i);
        int x = p.x(), y = p.y();
        if ((c.piece == WALL) == onBoard(x, y)) err << "cell " << i << " wall flag wrong\n";
        if (c.piece == WALL) continue;
        if (c.piece != EMPTY) {
            stones++;
            hash ^= ZOBRIST.stone[c.piece][i];
        }
        // Candidate count: stones whose range covers this cell.
        int cand = 0;
        for (int off : candidateOffsets_) {
            int j = i - off;
            if (j >= 0 && j < CELL_NB && (cells_[j].piece == BLACK || cells_[j].piece == WHITE))
                cand++;
        }
        if (cand != c.candidates) err << "cell " << posToString(p) << " candidate count\n";
        for (int d = 0; d < DIR_NB; d++) {
            uint32_t key = 0;
            for (int k = -5; k <= 5; k++) {
                if (k == 0) continue;
                int nx = x + k * DIR_DX[d], ny = y + k * DIR_DY[d];
                Color q = onBoard(nx, ny) ? cells_[Pos(nx, ny).idx].piece : WALL;
                key |= cellBits(q) << lineKeyShift(k);
            }
            if (key != keys_[d][i]) err << "cell " << posToString(p) << " dir " << d << " key\n";
        }
        if (c.piece != EMPTY) {
            if (c.p4[BLACK] != NONE || c.p4[WHITE] != NONE)
                err << "occupied cell " << posToString(p) << " has a Pattern4\n";
            continue;
        }
        for (int s = 0; s < COLOR_NB; s++) {
            Pattern pt[DIR_NB];
            for (int d = 0; d < DIR_NB; d++) {
                pt[d] = tables_->linePattern(Color(s), keys_[d][i]);
                if (pt[d] != c.pattern[s][d])
                    err << "cell " << posToString(p) << " pattern side " << s << " dir " << d
                        << "\n";
            }
            uint16_t pc = pcodeOf(pt[0], pt[1], pt[2], pt[3]);
            if (pc != c.pcode[s]) err << "cell " << posToString(p) << " pcode\n";
            Pattern4 p4 =
                pattern4From({pt[0], pt[1], pt[2], pt[3]}, rule_ == Rule::RENJU && s == BLACK);
            if (p4 != c.p4[s]) err << "cell " << posToString(p) << " Pattern4\n";
            count[s][p4]++;
            if (scores_) {
                sums[s][0] += scores_->score[s][0][pc];
                sums[s][1] += scores_->score[s][1][pc];
            }
        }
    }
    for (int s = 0; s < COLOR_NB; s++)
        for (int k = 0; k < PATTERN4_NB; k++)
            if (count[s][k] != p4Count_[s][k])
                err << "Pattern4 count " << pattern4Name(Pattern4(k)) << " side " << s << "\n";
    for (int s = 0; s < COLOR_NB; s++)
        for (int k = 0; k < 2; k++)
            if (sums[s][k] != scoreSum_[s][k])
                err << "score sum side " << s << " index " << k << "\n";
    if (hash != hash_) err << "hash\n";
    if (stones != stones_) err << "stone count\n";
    return err.str();
}

std::string Board::toString() const {
    std::string s;
    for (int y = 0; y < height_; y++) {
        for (int x = 0; x < width_; x++) {
            Color c = cells_[Pos(x, y).idx].piece;
            s += c == BLACK ? 'X' : c == WHITE ? 'O' : '.';
        }
        s += '\n';
    }
    return s;
}

} // namespace moku::game
