// The self-play record format (training/FORMAT.md): random records survive the writer and the
// reader, the reader agrees with a slow decoder written here from the document, and truncated,
// corrupt or illegal input is reported with the good part kept.
#include <gtest/gtest.h>

#include <lz4frame.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "moku/data/selfplay_format.h"

using namespace moku;
using namespace moku::data;

namespace {

Record randomRecord(std::mt19937& rng) {
    Record r;
    r.rule = uint8_t(rng() % 3);
    r.size = uint8_t(5 + rng() % 18);
    int cells = r.size * r.size;
    std::vector<uint16_t> order(static_cast<size_t>(cells));
    for (int i = 0; i < cells; i++) order[size_t(i)] = uint16_t(i);
    std::shuffle(order.begin(), order.end(), rng);
    size_t stones = rng() % size_t(cells - 1); // leaves at least two empty cells
    if (rng() % 4) stones = std::min<size_t>(stones, 40);
    r.moves.assign(order.begin(), order.begin() + long(stones));
    r.best = order[stones];
    size_t k = rng() % 4 ? 0 : std::min<size_t>(rng() % 12 + 1, size_t(cells) - stones);
    for (size_t i = 0; i < k; i++)
        r.policy.push_back({order[stones + i], uint16_t(1 + rng() % 65535)});
    r.result = uint8_t(rng() % 3);
    r.flags = uint8_t(rng() % 4);
    r.value = int16_t(int(rng() % 40001) - 20000);
    return r;
}

std::string encode(const std::vector<Record>& records, size_t from, size_t to) {
    std::string raw;
    for (size_t i = from; i < to; i++) appendRecord(raw, records[i]);
    return raw;
}

// The slow twin: every frame decompressed at once into one byte stream, then the records read
// field by field as FORMAT.md lists them.
std::vector<Record> slowDecode(const std::string& file) {
    std::string stream;
    LZ4F_dctx* dctx = nullptr;
    EXPECT_FALSE(LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)));
    size_t at = 0;
    std::vector<char> out(1 << 20);
    while (at < file.size()) {
        size_t src = file.size() - at, dst = out.size();
        size_t ret = LZ4F_decompress(dctx, out.data(), &dst, file.data() + at, &src, nullptr);
        EXPECT_FALSE(LZ4F_isError(ret));
        if (LZ4F_isError(ret)) break;
        stream.append(out.data(), dst);
        at += src;
    }
    LZ4F_freeDecompressionContext(dctx);
    auto u8 = [&](size_t p) { return unsigned(uint8_t(stream[p])); };
    auto u16 = [&](size_t p) { return u8(p) + 256 * u8(p + 1); };
    std::vector<Record> records;
    size_t p = 0;
    while (p < stream.size()) {
        EXPECT_EQ(u8(p), 'M');
        EXPECT_EQ(u8(p + 1), 'K');
        EXPECT_EQ(u8(p + 2), 'S');
        EXPECT_EQ(u8(p + 3), 'P');
        EXPECT_EQ(u8(p + 4), 1u);
        Record r;
        r.rule = uint8_t(u8(p + 5));
        r.size = uint8_t(u8(p + 6));
        unsigned side = u8(p + 7);
        r.result = uint8_t(u8(p + 8));
        r.flags = uint8_t(u8(p + 9));
        r.value = int16_t(uint16_t(u16(p + 10)));
        r.best = uint16_t(u16(p + 12));
        unsigned s = u16(p + 14), k = u8(p + 16);
        EXPECT_EQ(u8(p + 17), 0u);
        EXPECT_EQ(side, s % 2);
        for (unsigned i = 0; i < s; i++) r.moves.push_back(uint16_t(u16(p + 18 + 2 * i)));
        for (unsigned i = 0; i < k; i++)
            r.policy.push_back(
                {uint16_t(u16(p + 18 + 2 * s + 4 * i)), uint16_t(u16(p + 20 + 2 * s + 4 * i))});
        records.push_back(r);
        p += 18 + 2 * s + 4 * k;
    }
    return records;
}

// Records in frames of `perFrame`; the frame sizes go to `frameBytes`.
std::string writeFrames(const std::vector<Record>& records, size_t perFrame,
                        std::vector<size_t>* frameBytes = nullptr) {
    std::string file;
    for (size_t i = 0; i < records.size(); i += perFrame) {
        std::string frame =
            compressFrame(encode(records, i, std::min(records.size(), i + perFrame)));
        if (frameBytes) frameBytes->push_back(frame.size());
        file += frame;
    }
    return file;
}

} // namespace

TEST(SelfplayFormat, RoundTripOfRandomRecordsAgreesWithASlowDecoder) {
    std::mt19937 rng(7);
    std::vector<Record> records;
    for (int i = 0; i < 3000; i++) records.push_back(randomRecord(rng));
    for (const Record& r : records) ASSERT_EQ(recordProblem(r), "");
    std::string file = writeFrames(records, 97);
    // The frame magic and the content checksum flag (FLG bit 2) of the first frame.
    ASSERT_GE(file.size(), 5u);
    EXPECT_EQ(std::memcmp(file.data(), "\x04\x22\x4D\x18", 4), 0);
    EXPECT_TRUE(uint8_t(file[4]) & 0x04);
    ReadResult read = readRecords(file, "random");
    EXPECT_TRUE(read.complete);
    EXPECT_TRUE(read.problems.empty());
    EXPECT_EQ(read.intactBytes, file.size());
    EXPECT_EQ(read.frames.size(), (records.size() + 96) / 97);
    EXPECT_EQ(read.records, records);
    EXPECT_EQ(slowDecode(file), records);
    // The streaming form gives the same records, each with its frame.
    std::vector<Record> streamed;
    ReadResult counted = readRecords(file, "stream", [&](Record&& r, size_t frame) {
        EXPECT_EQ(frame, streamed.size() / 97);
        streamed.push_back(std::move(r));
    });
    EXPECT_TRUE(counted.records.empty());
    EXPECT_EQ(streamed, records);
    EXPECT_EQ(counted.frames.back().firstRecord + counted.frames.back().records, records.size());
    // Record length = 18 + 2S + 4K.
    std::string one;
    appendRecord(one, records[5]);
    EXPECT_EQ(one.size(), 18 + 2 * records[5].moves.size() + 4 * records[5].policy.size());
}

TEST(SelfplayFormat, TruncatedOrCorruptTailKeepsTheEarlierFrames) {
    std::mt19937 rng(11);
    std::vector<Record> records;
    for (int i = 0; i < 60; i++) records.push_back(randomRecord(rng));
    std::vector<size_t> sizes;
    std::string file = writeFrames(records, 20, &sizes);
    ASSERT_EQ(sizes.size(), 3u);
    // Every truncation: no crash, the records of the whole frames before the cut, reported.
    for (size_t cut = 0; cut < file.size(); cut++) {
        ReadResult read = readRecords(std::string_view(file).substr(0, cut), "cut");
        size_t whole = cut >= sizes[0] + sizes[1] ? 2 : cut >= sizes[0] ? 1 : 0;
        size_t boundary = whole == 2 ? sizes[0] + sizes[1] : whole == 1 ? sizes[0] : 0;
        ASSERT_EQ(read.records.size(), 20 * whole) << "cut at " << cut;
        EXPECT_EQ(read.intactBytes, boundary);
        EXPECT_EQ(read.complete, cut == boundary);
        if (cut != boundary) {
            ASSERT_EQ(read.problems.size(), 1u);
            EXPECT_NE(read.problems[0].find("cut: byte " + std::to_string(boundary)),
                      std::string::npos)
                << read.problems[0];
        }
    }
    // One corrupt byte in the second frame (past its header): reported, the first frame kept.
    for (size_t at = sizes[0] + 12; at < sizes[0] + sizes[1]; at += 7) {
        std::string bad = file;
        bad[at] = char(bad[at] ^ 0x5A);
        ReadResult read = readRecords(bad, "bad");
        EXPECT_FALSE(read.complete);
        ASSERT_FALSE(read.problems.empty());
        EXPECT_GE(read.records.size(), 20u);
        EXPECT_EQ(std::vector<Record>(read.records.begin(), read.records.begin() + 20),
                  std::vector<Record>(records.begin(), records.begin() + 20));
        EXPECT_EQ(read.intactBytes, sizes[0]);
    }
    // Random damage anywhere: never a crash, and every record returned is valid.
    std::mt19937 damage(3);
    for (int round = 0; round < 300; round++) {
        std::string bad = file;
        for (int flips = 1 + int(damage() % 3); flips > 0; flips--)
            bad[damage() % bad.size()] ^= char(1 + damage() % 255);
        ReadResult read = readRecords(bad, "damaged");
        for (const Record& r : read.records) EXPECT_EQ(recordProblem(r), "");
        EXPECT_LE(read.intactBytes, bad.size());
    }
    // Garbage after the last frame.
    ReadResult read = readRecords(file + "garbage", "junk");
    EXPECT_FALSE(read.complete);
    EXPECT_EQ(read.records, records);
    EXPECT_EQ(read.intactBytes, file.size());
}

TEST(SelfplayFormat, IllegalRecordsAreReportedAndSkipped) {
    Record good;
    good.rule = 0;
    good.size = 15;
    good.moves = {112, 113, 97};
    good.best = 98;
    good.value = 35;
    Record offBoard = good;
    offBoard.moves[1] = 225; // 15 * 15
    Record occupied = good;
    occupied.moves[2] = 112;
    Record bestOccupied = good;
    bestOccupied.best = 113;
    Record policyOccupied = good;
    policyOccupied.policy = {{98, 10}, {97, 5}};
    Record badRule = good;
    badRule.rule = 4;
    Record badSize = good;
    badSize.size = 23;
    Record badResult = good;
    badResult.result = 3;
    std::string raw;
    appendRecord(raw, good);
    for (const Record* r :
         {&offBoard, &occupied, &bestOccupied, &policyOccupied, &badRule, &badSize, &badResult})
        appendRecord(raw, *r);
    // The wrong side to move: a good record with its side byte flipped.
    std::string wrongSide;
    appendRecord(wrongSide, good);
    wrongSide[7] = 0;
    raw += wrongSide;
    appendRecord(raw, good);
    ReadResult read = readRecords(compressFrame(raw), "illegal");
    EXPECT_EQ(read.records, (std::vector<Record>{good, good}));
    ASSERT_EQ(read.problems.size(), 8u);
    EXPECT_NE(read.problems[0].find("off the board"), std::string::npos) << read.problems[0];
    EXPECT_NE(read.problems[1].find("occupied"), std::string::npos) << read.problems[1];
    EXPECT_NE(read.problems[7].find("side to move"), std::string::npos) << read.problems[7];
    EXPECT_FALSE(read.complete);
    ASSERT_EQ(read.frames.size(), 1u);
    EXPECT_FALSE(read.frames[0].intact);

    // A broken magic ends the reading, keeping what came before.
    std::string broken;
    appendRecord(broken, good);
    std::string second;
    appendRecord(second, good);
    second[0] = 'X';
    broken += second;
    appendRecord(broken, good);
    read = readRecords(compressFrame(broken), "magic");
    EXPECT_EQ(read.records.size(), 1u);
    ASSERT_EQ(read.problems.size(), 1u);
    EXPECT_NE(read.problems[0].find("magic"), std::string::npos);
}

TEST(SelfplayFormat, GameStartsFollowTheMoves) {
    Record a;
    a.moves = {1, 2};
    Record b = a;
    b.moves = {1, 2, 3};
    Record c = a; // a new game with the same opening
    Record d = c;
    d.moves = {1, 2, 4};
    EXPECT_EQ(gameStarts({a, b, c, d}), (std::vector<size_t>{0, 2}));
    EXPECT_EQ(gameStarts({}), std::vector<size_t>{});
}
