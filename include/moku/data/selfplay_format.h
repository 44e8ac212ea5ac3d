// The self-play record format of training/FORMAT.md (version 1): one record per position, in
// LZ4 frames that each hold whole games. The encoder, the frame compressor and a validating
// reader, shared by `pbrain-moku selfplay`, the tests and future tools.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "moku/core/types.h"

namespace moku::data {

constexpr uint32_t RECORD_MAGIC = 0x50534B4D; // the bytes "MKSP"
constexpr uint8_t FORMAT_VERSION = 1;
constexpr size_t RECORD_HEADER_BYTES = 18;

// Record flags.
constexpr uint8_t FLAG_PROVEN = 1;  // the value is a proven result (mate / forced)
constexpr uint8_t FLAG_OPENING = 2; // the next move was placed by the opening, not the search

// Game results from the side to move.
constexpr uint8_t RESULT_LOSS = 0, RESULT_DRAW = 1, RESULT_WIN = 2;

// Values are clamped to this magnitude when written.
constexpr int VALUE_CLAMP = 20000;

// A move as the format writes it: y * N + x.
constexpr uint16_t cellIndex(int x, int y, int size) { return uint16_t(y * size + x); }

// One position. The side to move is not stored here: it is moves.size() % 2 (black first).
struct Record {
    uint8_t rule = 0; // 0 freestyle, 1 standard, 2 renju
    uint8_t size = 15;
    uint8_t result = RESULT_DRAW; // for the side to move
    uint8_t flags = 0;
    int16_t value = 0; // for the side to move
    uint16_t best = 0;
    std::vector<uint16_t> moves;                       // black first
    std::vector<std::pair<uint16_t, uint16_t>> policy; // (move, weight); empty = best only
    bool operator==(const Record&) const = default;
};

// Appends the record's bytes (little-endian) to `out`. The record must be valid.
void appendRecord(std::string& out, const Record& r);

// What is wrong with a record's contents (the checks of FORMAT.md "Validity" after the magic
// and the version); empty when it is valid. Policy weights that are all 0 mean the best move.
std::string recordProblem(const Record& r);

// One LZ4 frame (content checksum on) holding `raw`; the same input gives the same bytes.
std::string compressFrame(std::string_view raw);

// A frame the reader met.
struct FrameInfo {
    uint64_t offset = 0; // in the file
    uint64_t bytes = 0;  // compressed size
    size_t firstRecord = 0;
    size_t records = 0;  // valid records kept from it
    bool decoded = true; // a whole LZ4 frame with a good checksum
    bool intact = true;  // decoded, and every record in it valid
};

struct ReadResult {
    std::vector<Record> records;       // empty when a sink took them
    std::vector<FrameInfo> frames;     // the frames met, the last one possibly not intact
    std::vector<std::string> problems; // one line each: "NAME: byte OFFSET: what"
    uint64_t intactBytes = 0;          // the length of the leading run of intact frames
    bool complete = true;              // the whole input was read without a problem
};

// Reads a file's bytes. A record that fails validation is skipped with a problem; a frame that
// does not decode (truncated, corrupt, bad checksum), or a broken magic, an unknown version or
// a record cut short inside a frame, ends the reading: what came before is kept.
ReadResult readRecords(std::string_view bytes, std::string_view name);
// The same for a file; a file that cannot be opened is one problem.
ReadResult readRecordFile(const std::string& path);

// The valid records with the index of their frame in ReadResult::frames, in order.
using RecordSink = std::function<void(Record&& record, size_t frame)>;
// Streaming forms: each valid record goes to `sink` instead of ReadResult::records (the
// frames' `firstRecord` and `records` still count them).
ReadResult readRecords(std::string_view bytes, std::string_view name, const RecordSink& sink);
ReadResult readRecordFile(const std::string& path, const RecordSink& sink);

// Whether `next` continues the game of `previous`: the same rule and size, one stone more and the
// same earlier moves (the writer records every searched position of a game in order).
bool continuesGame(const Record& previous, const Record& next);
// The index of each game's first record.
std::vector<size_t> gameStarts(const std::vector<Record>& records);

} // namespace moku::data
