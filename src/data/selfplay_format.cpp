// The self-play records of training/FORMAT.md: encoding, LZ4 frames (liblz4's frame API) and
// the validating reader.
#include "moku/data/selfplay_format.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <lz4frame.h>

namespace moku::data {

namespace {

void put8(std::string& out, unsigned v) { out.push_back(char(uint8_t(v))); }
void put16(std::string& out, unsigned v) {
    put8(out, v & 0xFF);
    put8(out, (v >> 8) & 0xFF);
}
void put32(std::string& out, uint32_t v) {
    put16(out, v & 0xFFFF);
    put16(out, v >> 16);
}

uint8_t get8(std::string_view s, size_t at) { return uint8_t(s[at]); }
uint16_t get16(std::string_view s, size_t at) {
    return uint16_t(get8(s, at) | get8(s, at + 1) << 8);
}
uint32_t get32(std::string_view s, size_t at) {
    return uint32_t(get16(s, at)) | uint32_t(get16(s, at + 2)) << 16;
}

struct DctxDeleter {
    void operator()(LZ4F_dctx* d) const { LZ4F_freeDecompressionContext(d); }
};

// Decodes the frame that starts at bytes[offset]. On success `used` is its compressed length;
// otherwise the reason is returned.
std::string decodeFrame(std::string_view bytes, size_t offset, std::string& out, size_t& used) {
    LZ4F_dctx* raw = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&raw, LZ4F_VERSION)))
        return "cannot create an LZ4 decompression context";
    std::unique_ptr<LZ4F_dctx, DctxDeleter> dctx(raw);
    size_t at = offset;
    char buffer[1 << 16];
    for (;;) {
        size_t srcSize = bytes.size() - at;
        size_t dstSize = sizeof buffer;
        size_t ret =
            LZ4F_decompress(dctx.get(), buffer, &dstSize, bytes.data() + at, &srcSize, nullptr);
        if (LZ4F_isError(ret))
            return std::string("corrupt LZ4 frame (") + LZ4F_getErrorName(ret) + ")";
        out.append(buffer, dstSize);
        at += srcSize;
        if (ret == 0) {
            used = at - offset;
            return "";
        }
        if (at == bytes.size() && dstSize == 0) return "truncated LZ4 frame";
    }
}

} // namespace

void appendRecord(std::string& out, const Record& r) {
    size_t s = r.moves.size();
    put32(out, RECORD_MAGIC);
    put8(out, FORMAT_VERSION);
    put8(out, r.rule);
    put8(out, r.size);
    put8(out, unsigned(s % 2));
    put8(out, r.result);
    put8(out, r.flags);
    put16(out, uint16_t(r.value));
    put16(out, r.best);
    put16(out, unsigned(s));
    put8(out, unsigned(r.policy.size()));
    put8(out, 0);
    for (uint16_t m : r.moves) put16(out, m);
    for (auto [m, w] : r.policy) {
        put16(out, m);
        put16(out, w);
    }
}

std::string recordProblem(const Record& r) {
    if (r.rule > 2) return "rule " + std::to_string(r.rule) + " is not 0, 1 or 2";
    if (r.size < MIN_BOARD_SIZE || r.size > MAX_BOARD_SIZE)
        return "board size " + std::to_string(r.size) + " is outside 5..22";
    if (r.result > RESULT_WIN) return "result " + std::to_string(r.result) + " is not 0, 1 or 2";
    const size_t cells = size_t(r.size) * r.size;
    if (r.moves.size() >= cells) return std::to_string(r.moves.size()) + " stones fill the board";
    if (r.policy.size() > 255) return "more than 255 policy moves";
    std::vector<char> taken(cells, 0);
    for (size_t i = 0; i < r.moves.size(); i++) {
        uint16_t m = r.moves[i];
        if (m >= cells) return "move " + std::to_string(i + 1) + " is off the board";
        if (taken[m]) return "move " + std::to_string(i + 1) + " is on an occupied cell";
        taken[m] = 1;
    }
    if (r.best >= cells) return "the best move is off the board";
    if (taken[r.best]) return "the best move is on an occupied cell";
    for (auto [m, w] : r.policy) {
        if (m >= cells) return "a policy move is off the board";
        if (taken[m]) return "a policy move is on an occupied cell";
    }
    return "";
}

std::string compressFrame(std::string_view raw) {
    LZ4F_preferences_t prefs{};
    prefs.frameInfo.blockSizeID = LZ4F_max4MB;
    prefs.frameInfo.blockMode = LZ4F_blockLinked;
    prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    prefs.frameInfo.contentSize = raw.size();
    std::string out(LZ4F_compressFrameBound(raw.size(), &prefs), '\0');
    size_t n = LZ4F_compressFrame(out.data(), out.size(), raw.data(), raw.size(), &prefs);
    if (LZ4F_isError(n)) throw std::runtime_error(std::string("LZ4: ") + LZ4F_getErrorName(n));
    out.resize(n);
    return out;
}

ReadResult readRecords(std::string_view bytes, std::string_view name) {
    return readRecords(bytes, name, {});
}

ReadResult readRecords(std::string_view bytes, std::string_view name, const RecordSink& sink) {
    ReadResult result;
    size_t kept = 0; // valid records so far
    const std::string where = std::string(name) + ": byte ";
    size_t offset = 0;
    while (offset < bytes.size()) {
        FrameInfo frame;
        frame.offset = offset;
        frame.firstRecord = kept;
        std::string content;
        size_t used = 0;
        std::string error = decodeFrame(bytes, offset, content, used);
        if (!error.empty()) {
            frame.decoded = frame.intact = false;
            frame.bytes = bytes.size() - offset;
            result.frames.push_back(frame);
            result.problems.push_back(where + std::to_string(offset) + ": " + error +
                                      "; the records before it are kept");
            result.complete = false;
            break;
        }
        frame.bytes = used;
        // The records of the frame.
        bool stop = false;
        size_t at = 0, index = 0;
        while (at < content.size()) {
            std::string record =
                where + std::to_string(offset) + ": frame record " + std::to_string(index) + ": ";
            if (content.size() - at < RECORD_HEADER_BYTES || get32(content, at) != RECORD_MAGIC ||
                get8(content, at + 4) != FORMAT_VERSION) {
                std::string what =
                    content.size() - at < RECORD_HEADER_BYTES ? "a record cut short"
                    : get32(content, at) != RECORD_MAGIC
                        ? "a broken record magic"
                        : "unknown format version " + std::to_string(get8(content, at + 4));
                result.problems.push_back(record + what + "; the rest of the file is not read");
                stop = true;
                break;
            }
            size_t s = get16(content, at + 14), k = get8(content, at + 16);
            size_t length = RECORD_HEADER_BYTES + 2 * s + 4 * k;
            if (content.size() - at < length) {
                result.problems.push_back(record +
                                          "a record cut short; the rest of the file is not read");
                stop = true;
                break;
            }
            Record r;
            r.rule = get8(content, at + 5);
            r.size = get8(content, at + 6);
            uint8_t side = get8(content, at + 7);
            r.result = get8(content, at + 8);
            r.flags = get8(content, at + 9);
            r.value = int16_t(get16(content, at + 10));
            r.best = get16(content, at + 12);
            for (size_t i = 0; i < s; i++)
                r.moves.push_back(get16(content, at + RECORD_HEADER_BYTES + 2 * i));
            for (size_t i = 0; i < k; i++) {
                size_t p = at + RECORD_HEADER_BYTES + 2 * s + 4 * i;
                r.policy.push_back({get16(content, p), get16(content, p + 2)});
            }
            std::string problem = side != s % 2 ? "side to move " + std::to_string(side) +
                                                      " with " + std::to_string(s) + " stones"
                                                : recordProblem(r);
            if (problem.empty()) {
                kept++;
                if (sink)
                    sink(std::move(r), result.frames.size());
                else
                    result.records.push_back(std::move(r));
            } else {
                result.problems.push_back(record + problem + "; skipped");
                frame.intact = false;
            }
            at += length;
            index++;
        }
        frame.records = kept - frame.firstRecord;
        if (stop) frame.intact = false;
        result.frames.push_back(frame);
        if (!frame.intact) result.complete = false;
        if (stop) break;
        offset += used;
    }
    for (const FrameInfo& f : result.frames) {
        if (!f.intact) break;
        result.intactBytes = f.offset + f.bytes;
    }
    return result;
}

ReadResult readRecordFile(const std::string& path) { return readRecordFile(path, {}); }

ReadResult readRecordFile(const std::string& path, const RecordSink& sink) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ReadResult r;
        r.complete = false;
        r.problems.push_back(path + ": cannot open the file");
        return r;
    }
    std::ostringstream all;
    all << in.rdbuf();
    std::string bytes = std::move(all).str();
    return readRecords(bytes, path, sink);
}

bool continuesGame(const Record& previous, const Record& next) {
    return next.rule == previous.rule && next.size == previous.size &&
           next.moves.size() == previous.moves.size() + 1 &&
           std::equal(previous.moves.begin(), previous.moves.end(), next.moves.begin());
}

std::vector<size_t> gameStarts(const std::vector<Record>& records) {
    std::vector<size_t> starts;
    for (size_t i = 0; i < records.size(); i++)
        if (i == 0 || !continuesGame(records[i - 1], records[i])) starts.push_back(i);
    return starts;
}

} // namespace moku::data
