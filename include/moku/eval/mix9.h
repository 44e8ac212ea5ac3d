// The mix9svq NNUE evaluator: loader for the public weight files and an incremental integer
// inference. tests/data/mix9svq holds a synthetic weight file in the format and the outputs the
// reference engine computes with it, which the tests match bit for bit on every kernel (the
// policy within 1e-5 relative on SSE4.1, which has no fused multiply-add).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "moku/core/types.h"

namespace moku::eval {

// ---- Instruction sets -----------------------------------------------------------------------

enum class SimdLevel { SCALAR, SSE41, AVX2, AVX512, NEON };

SimdLevel bestSimdLevel();                  // the widest kernel this CPU can run
bool simdSupported(SimdLevel level);        // compiled in and supported by this CPU
std::string_view simdName(SimdLevel level); // "scalar", "sse41", "avx2", "avx512", "neon"
std::optional<SimdLevel> simdFromName(std::string_view name); // case-insensitive
std::vector<SimdLevel> supportedSimdLevels();                 // every level simdSupported()

// ---- Dimensions -----------------------------------------------------------------------------

namespace mix9 {
constexpr int FEATURES = 64;   // F: mapSum channels
constexpr int DW = 32;         // D: depthwise conv channels (the first D features)
constexpr int POLICY_CH = 32;  // P
constexpr int VALUE_CH = 64;   // V
constexpr int POLICY_OUT = 16; // PM
constexpr int SHAPE_NB = 442503;
constexpr int CODEBOOK_ROWS = 65536;
constexpr int STAR_UP = 256;   // up1 and up2 stacked
constexpr int VALUE_IN = 320;  // value_l1 input
constexpr int POLICY_L2 = 528; // policy_l2 outputs
constexpr int MAX_SIZE = 32;   // largest board the size mask can describe
constexpr uint32_t MAGIC = 0xACD8CC6Au;
constexpr uint32_t ARCH_HASH = 0x84E275F6u;
constexpr size_t PAYLOAD_BYTES = 12409180;
} // namespace mix9

// ---- Weights --------------------------------------------------------------------------------

// Immutable network parameters, re-laid out at load time for the kernels. Shared read-only
// between evaluators and threads. Linear layers on unsigned 8-bit inputs are stored
// "input-quad interleaved": wt[(i/4)*nOut*4 + o*4 + i%4] = W[o][i], so one broadcast of four
// inputs multiplies a contiguous block of outputs; signed 16-bit layers use input pairs the
// same way.
struct Mix9Weights {
    uint32_t ruleMask = 0;
    uint32_t sizeMask = 0;
    std::string description;

    bool supportsRule(Rule r) const;
    bool supportsSize(int n) const { return n >= 1 && n <= 32 && (sizeMask >> (n - 1) & 1); }

    // Views into `storage` (64-byte aligned).
    const int16_t* codebook[2] = {};   // [65536][64]
    const uint16_t* mapping[2] = {};   // [442503]
    const int16_t* dwWeight = nullptr; // [9][32]
    const int16_t* dwBias = nullptr;   // [32]
    const int8_t* policyL1W = nullptr; // quad-interleaved 64 -> 64
    const int32_t* policyL1B = nullptr;
    const int8_t* policyL2W = nullptr; // quad-interleaved 64 -> 528
    const int32_t* policyL2B = nullptr;
    struct Star {
        const int8_t* upW = nullptr;    // quad-interleaved 64 -> 256 (up1 rows, then up2 rows)
        const int32_t* upB = nullptr;   // [256]
        const int16_t* downW = nullptr; // pair-interleaved 64 -> 64, 16-bit
        const int32_t* downB = nullptr; // [64]
    };
    Star star[4];                     // corner, edge, center, quad
    const int8_t* valueL1W = nullptr; // quad-interleaved 320 -> 64
    const int32_t* valueL1B = nullptr;
    const int8_t* valueL2W = nullptr; // quad-interleaved 64 -> 64
    const int32_t* valueL2B = nullptr;
    const int8_t* valueL3W = nullptr; // row-major [4][64]
    const int32_t* valueL3B = nullptr;
    float policyOutW[16] = {};
    float policyOutB = 0;

    std::shared_ptr<void> storage; // owns every array above
};

struct LoadResult {
    std::shared_ptr<const Mix9Weights> weights; // null on error
    std::string error;                          // empty on success
    explicit operator bool() const { return weights != nullptr; }
};

// Reads a weight file and checks that it covers `rule` and `boardSize`.
LoadResult loadMix9(const std::string& path, Rule rule, int boardSize);
LoadResult loadMix9FromMemory(const void* data, size_t bytes, Rule rule, int boardSize);
// Without the rule / size check (the caller checks supportsRule / supportsSize itself).
LoadResult loadMix9(const std::string& path);
LoadResult loadMix9FromMemory(const void* data, size_t bytes);

// ---- Evaluator ------------------------------------------------------------------------------

struct ValueResult {
    int32_t win = 0, loss = 0, draw = 0; // logits x 16384 for the side to move

    // softmax over the three logits: {win, loss, draw} probabilities.
    std::array<double, 3> probabilities() const;
    // Expected score in [0, 1]: P(win) + P(draw) / 2.
    double winrate() const;
    // The winrate on the search scale (winrate = 1 / (1 + exp(-v / 200))), clamped to
    // +-VALUE_EVAL_MAX.
    Value searchValue() const;
};

struct Mix9Kernels; // per instruction set, internal
struct Mix9Perspective;

// One board's worth of incremental accumulators (black-to-move and white-to-move views).
// Not thread-safe: one evaluator per search thread, sharing the weights.
class Mix9Evaluator {
public:
    // blackToMove / whiteToMove are the same pointer except in renju. Throws
    // std::invalid_argument for a null weight, a size outside 1..32 or an unsupported level.
    Mix9Evaluator(std::shared_ptr<const Mix9Weights> blackToMove,
                  std::shared_ptr<const Mix9Weights> whiteToMove, int boardSize,
                  SimdLevel level = bestSimdLevel());
    ~Mix9Evaluator();
    Mix9Evaluator(const Mix9Evaluator&) = delete;
    Mix9Evaluator& operator=(const Mix9Evaluator&) = delete;

    int boardSize() const { return size_; }
    SimdLevel simdLevel() const { return level_; }
    int moveCount() const { return int(moves_.size()); }
    Color stoneAt(int x, int y) const { return Color(board_[y * size_ + x]); }
    // The i-th stone in playing order: its cell (y * size + x) and colour.
    std::pair<int, Color> moveAt(int i) const { return {moves_[i].cell, Color(moves_[i].color)}; }

    void clear();                     // empty board
    void move(int x, int y, Color c); // throws std::invalid_argument off board / occupied
    void undo();                      // takes back the last move; O(1), work is deferred
    ValueResult value(Color sideToMove);
    // out[y * size + x] = policy logit for every empty cell; occupied cells are left untouched.
    void policy(Color sideToMove, float* out);

    // Tests: rebuild both views from the board with independent scalar code, and compare.
    void recompute();
    bool checkAgainstRecompute();

private:
    struct Move {
        int16_t cell;
        uint8_t color;
        bool operator==(const Move&) const = default;
    };
    Mix9Perspective& sync(Color sideToMove);

    std::shared_ptr<const Mix9Weights> weights_[2];
    int size_;
    SimdLevel level_;
    const Mix9Kernels* kernels_;
    std::vector<uint8_t> board_; // Color per cell, row-major
    std::vector<Move> moves_;
    std::unique_ptr<Mix9Perspective> persp_[2];
};

} // namespace moku::eval
