// Mix9Evaluator: keeps one accumulator per side-to-move view and brings it up to date with the
// move list lazily, when a value or policy is asked for.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <stdexcept>

#include "mix9_internal.h"

namespace moku::eval {

using namespace mix9;

namespace {

template <class T> struct AlignedDelete {
    void operator()(T* p) const { ::operator delete[](p, std::align_val_t(64)); }
};
template <class T> using AlignedArray = std::unique_ptr<T[], AlignedDelete<T>>;
template <class T> AlignedArray<T> alignedArray(size_t n) {
    T* p = static_cast<T*>(::operator new[](n * sizeof(T), std::align_val_t(64)));
    std::memset(static_cast<void*>(p), 0, n * sizeof(T));
    return AlignedArray<T>(p);
}

// Accumulator arrays for one board size.
struct AccArrays {
    AlignedArray<int32_t> code;
    AlignedArray<uint16_t> row;
    AlignedArray<int16_t> mapSum;
    AlignedArray<int16_t> conv;
    AlignedArray<int32_t> group;
    int cells = 0;

    explicit AccArrays(int cellNb)
        : code(alignedArray<int32_t>(4 * cellNb)), row(alignedArray<uint16_t>(4 * cellNb)),
          mapSum(alignedArray<int16_t>(64 * cellNb)), conv(alignedArray<int16_t>(32 * cellNb)),
          group(alignedArray<int32_t>(GROUP_NB * 64)), cells(cellNb) {}

    void copyFrom(const AccArrays& o) {
        std::memcpy(code.get(), o.code.get(), 4 * cells * sizeof(int32_t));
        std::memcpy(row.get(), o.row.get(), 4 * cells * sizeof(uint16_t));
        std::memcpy(mapSum.get(), o.mapSum.get(), 64 * cells * sizeof(int16_t));
        std::memcpy(conv.get(), o.conv.get(), 32 * cells * sizeof(int16_t));
        std::memcpy(group.get(), o.group.get(), GROUP_NB * 64 * sizeof(int32_t));
    }
    bool equals(const AccArrays& o) const {
        return std::memcmp(code.get(), o.code.get(), 4 * cells * sizeof(int32_t)) == 0 &&
               std::memcmp(row.get(), o.row.get(), 4 * cells * sizeof(uint16_t)) == 0 &&
               std::memcmp(mapSum.get(), o.mapSum.get(), 64 * cells * sizeof(int16_t)) == 0 &&
               std::memcmp(conv.get(), o.conv.get(), 32 * cells * sizeof(int16_t)) == 0 &&
               std::memcmp(group.get(), o.group.get(), GROUP_NB * 64 * sizeof(int32_t)) == 0;
    }
};

// From-scratch accumulator, written directly from the format description and independent of
// the incremental kernels so that tests can compare the two. digit[cell] is 0, 1 or 2.
void recomputeFromScratch(const Mix9Weights& w, int n, const uint8_t* digit, const uint8_t* groupOf,
                          AccArrays& acc) {
    const int cells = n * n;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            int c = y * n + x;
            int16_t* ms = acc.mapSum.get() + c * 64;
            std::fill(ms, ms + 64, int16_t(0));
            for (int d = 0; d < 4; ++d) {
                auto onBoard = [&](int k) {
                    int px = x - k * DX[d], py = y - k * DY[d];
                    return px >= 0 && px < n && py >= 0 && py < n;
                };
                int left = 0, right = 0;
                while (left < 5 && onBoard(left + 1)) ++left;       // towards -d: p = c - k d
                while (right < 5 && onBoard(-(right + 1))) ++right; // towards +d
                int code = borderCode(left, right);
                for (int k = -5; k <= 5; ++k)
                    if (onBoard(k))
                        code += digit[(y - k * DY[d]) * n + (x - k * DX[d])] * POW3[k + 5];
                if (code < 0 || code >= SHAPE_NB)
                    throw std::logic_error("mix9: shape code out of range");
                uint16_t r = w.mapping[d >> 1][code];
                acc.code[d * cells + c] = code;
                acc.row[d * cells + c] = r;
                const int16_t* row = w.codebook[d >> 1] + r * 64;
                for (int i = 0; i < 64; ++i) ms[i] = int16_t(ms[i] + row[i]);
            }
        }
    std::fill(acc.group.get(), acc.group.get() + GROUP_NB * 64, 0);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            int t = y * n + x;
            int16_t* cv = acc.conv.get() + t * 32;
            for (int ch = 0; ch < 32; ++ch) {
                int16_t sum = w.dwBias[ch];
                for (int ky = 0; ky < 3; ++ky)
                    for (int kx = 0; kx < 3; ++kx) {
                        int sx = x + kx - 1, sy = y + ky - 1;
                        if (sx < 0 || sx >= n || sy < 0 || sy >= n) continue;
                        int32_t f = std::max<int32_t>(acc.mapSum[(sy * n + sx) * 64 + ch], 0);
                        int32_t prod = int32_t(w.dwWeight[(ky * 3 + kx) * 32 + ch]) * (4 * f);
                        sum = int16_t(sum + (prod >> 16));
                    }
                cv[ch] = sum;
            }
            int32_t* g = acc.group.get() + groupOf[t] * 64;
            for (int ch = 0; ch < 32; ++ch) g[ch] += std::max<int32_t>(cv[ch], 0);
            for (int ch = 32; ch < 64; ++ch) g[ch] += std::max<int32_t>(acc.mapSum[t * 64 + ch], 0);
        }
}

} // namespace

constexpr int LOG_DEPTH = 32; // plies that can be taken back by copying

struct Mix9Perspective {
    const Mix9Weights* w;
    uint8_t digitOf[2]; // digit of a BLACK / WHITE stone in this view
    AccArrays acc, empty;
    std::vector<uint8_t> groupOf;
    AlignedArray<uint32_t> stamp;
    uint32_t epoch = 0;
    AccView view;
    ValueCache valueCache;
    PolicyCache policyCache;
    std::vector<std::pair<int16_t, uint8_t>> applied; // moves reflected in acc
    std::unique_ptr<UpdateLog[]> logs = std::make_unique<UpdateLog[]>(LOG_DEPTH);
    size_t synced = 0; // applied[0, synced) is known to equal the evaluator's move list

    Mix9Perspective(const Mix9Weights* weights, Color toMove, int n)
        : w(weights), acc(n * n), empty(n * n), groupOf(n * n),
          stamp(alignedArray<uint32_t>(n * n)) {
        digitOf[toMove] = 1;
        digitOf[~toMove] = 2;
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x)
                groupOf[y * n + x] = uint8_t(groupIndex(y, n) * 3 + groupIndex(x, n));
        std::vector<uint8_t> zero(n * n, 0);
        recomputeFromScratch(*w, n, zero.data(), groupOf.data(), empty);
        acc.copyFrom(empty);
        view.size = n;
        view.code = acc.code.get();
        view.row = acc.row.get();
        view.mapSum = acc.mapSum.get();
        view.conv = acc.conv.get();
        view.group = acc.group.get();
        view.groupOf = groupOf.data();
        view.stamp = stamp.get();
        view.epoch = &epoch;
    }

    void invalidateLogs() {
        for (int i = 0; i < LOG_DEPTH; ++i) logs[i].ply = -1;
    }

    // Takes back the last applied move: from its log when there is one, else by an update.
    void takeBack(const Mix9Kernels& k) {
        auto [cell, color] = applied.back();
        int ply = int(applied.size()) - 1, digit = digitOf[color];
        UpdateLog& log = logs[ply % LOG_DEPTH];
        if (log.ply != ply) {
            k.update(*w, view, cell, -digit, nullptr);
        } else {
            const int n = view.size, cells = n * n, px = cell % n, py = cell / n;
            for (int d = 0; d < 4; ++d)
                for (int s = -5; s <= 5; ++s) {
                    int cx = px + s * DX[d], cy = py + s * DY[d];
                    if (cx >= 0 && cx < n && cy >= 0 && cy < n)
                        view.code[d * cells + cy * n + cx] -= digit * POW3[s + 5];
                }
            for (int i = 0; i < log.rowNb; ++i) view.row[log.rowIdx[i]] = log.rowOld[i];
            for (int i = 0; i < log.srcNb; ++i)
                std::memcpy(view.mapSum + log.srcCell[i] * 64, log.srcOld[i], sizeof log.srcOld[i]);
            for (int i = 0; i < log.convNb; ++i)
                std::memcpy(view.conv + log.convCell[i] * 32, log.convOld[i],
                            sizeof log.convOld[i]);
            std::memcpy(view.group, log.group, sizeof log.group);
            log.ply = -1;
        }
        applied.pop_back();
    }

    void apply(const Mix9Kernels& k, int cell, uint8_t color) {
        int ply = int(applied.size());
        UpdateLog& log = logs[ply % LOG_DEPTH];
        k.update(*w, view, cell, digitOf[color], &log);
        log.ply = ply;
        applied.emplace_back(int16_t(cell), color);
    }
};

Mix9Evaluator::Mix9Evaluator(std::shared_ptr<const Mix9Weights> blackToMove,
                             std::shared_ptr<const Mix9Weights> whiteToMove, int boardSize,
                             SimdLevel level)
    : weights_{std::move(blackToMove), std::move(whiteToMove)}, size_(boardSize), level_(level) {
    if (!weights_[0] || !weights_[1]) throw std::invalid_argument("mix9: null weights");
    if (boardSize < 1 || boardSize > MAX_SIZE)
        throw std::invalid_argument("mix9: board size must be 1..32");
    if (!simdSupported(level))
        throw std::invalid_argument("mix9: instruction set " + std::string(simdName(level)) +
                                    " is not available on this CPU/build");
    kernels_ = mix9Kernels(level);
    board_.assign(size_t(boardSize) * boardSize, EMPTY);
    for (int c = 0; c < 2; ++c)
        persp_[c] = std::make_unique<Mix9Perspective>(weights_[c].get(), Color(c), boardSize);
}

Mix9Evaluator::~Mix9Evaluator() = default;

void Mix9Evaluator::clear() {
    std::fill(board_.begin(), board_.end(), EMPTY);
    moves_.clear();
    for (auto& p : persp_) p->synced = 0;
}

void Mix9Evaluator::move(int x, int y, Color c) {
    if (x < 0 || x >= size_ || y < 0 || y >= size_ || (c != BLACK && c != WHITE))
        throw std::invalid_argument("mix9: move off the board");
    int cell = y * size_ + x;
    if (board_[cell] != EMPTY) throw std::invalid_argument("mix9: cell already occupied");
    board_[cell] = c;
    moves_.push_back({int16_t(cell), uint8_t(c)});
}

void Mix9Evaluator::undo() {
    if (moves_.empty()) throw std::logic_error("mix9: undo on an empty board");
    board_[moves_.back().cell] = EMPTY;
    moves_.pop_back();
    for (auto& p : persp_) p->synced = std::min(p->synced, moves_.size());
}

Mix9Perspective& Mix9Evaluator::sync(Color sideToMove) {
    Mix9Perspective& p = *persp_[sideToMove == WHITE ? 1 : 0];
    size_t common = p.synced;
    while (common < p.applied.size() && common < moves_.size() &&
           p.applied[common] == std::pair{moves_[common].cell, moves_[common].color})
        ++common;
    size_t extra = p.applied.size() - common;
    // Taking back many moves costs more than restoring the empty board and replaying.
    if (extra > common + 8) {
        p.acc.copyFrom(p.empty);
        p.applied.clear();
        p.invalidateLogs();
        common = 0;
    }
    while (p.applied.size() > common) p.takeBack(*kernels_);
    for (size_t i = common; i < moves_.size(); ++i)
        p.apply(*kernels_, moves_[i].cell, moves_[i].color);
    p.synced = moves_.size();
    return p;
}

ValueResult Mix9Evaluator::value(Color sideToMove) {
    Mix9Perspective& p = sync(sideToMove);
    int32_t o[3];
    kernels_->value(*p.w, p.view, p.valueCache, o);
    return ValueResult{o[0], o[1], o[2]};
}

void Mix9Evaluator::policy(Color sideToMove, float* out) {
    Mix9Perspective& p = sync(sideToMove);
    kernels_->policy(*p.w, p.view, p.policyCache, board_.data(), out);
}

void Mix9Evaluator::recompute() {
    for (int s = 0; s < 2; ++s) {
        Mix9Perspective& p = *persp_[s];
        std::vector<uint8_t> digit(board_.size());
        for (size_t c = 0; c < board_.size(); ++c)
            digit[c] = board_[c] == EMPTY ? 0 : p.digitOf[board_[c]];
        recomputeFromScratch(*p.w, size_, digit.data(), p.groupOf.data(), p.acc);
        p.applied.clear();
        p.invalidateLogs();
        for (const Move& m : moves_) p.applied.emplace_back(m.cell, m.color);
        p.synced = moves_.size();
    }
}

bool Mix9Evaluator::checkAgainstRecompute() {
    bool ok = true;
    for (int s = 0; s < 2; ++s) {
        Mix9Perspective& p = sync(Color(s));
        AccArrays fresh(size_ * size_);
        std::vector<uint8_t> digit(board_.size());
        for (size_t c = 0; c < board_.size(); ++c)
            digit[c] = board_[c] == EMPTY ? 0 : p.digitOf[board_[c]];
        recomputeFromScratch(*p.w, size_, digit.data(), p.groupOf.data(), fresh);
        ok &= fresh.equals(p.acc);
    }
    return ok;
}

std::array<double, 3> ValueResult::probabilities() const {
    double l[3] = {win / 16384.0, loss / 16384.0, draw / 16384.0};
    double m = std::max({l[0], l[1], l[2]});
    double e[3], sum = 0;
    for (int i = 0; i < 3; ++i) sum += e[i] = std::exp(l[i] - m);
    return {e[0] / sum, e[1] / sum, e[2] / sum};
}

double ValueResult::winrate() const {
    auto p = probabilities();
    return p[0] + 0.5 * p[2];
}

Value ValueResult::searchValue() const {
    double wr = std::clamp(winrate(), 1e-12, 1 - 1e-12);
    double v = 200.0 * std::log(wr / (1 - wr));
    return Value(std::clamp(v, double(-VALUE_EVAL_MAX), double(VALUE_EVAL_MAX)));
}

} // namespace moku::eval
