#include "train_tasks.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "caps.h"
#include "check.h"
#include "errors.h"

namespace posenc {

const char* train_task_name(TrainTask task) {
    static const char* const kNames[] = {"copy", "reverse", "sort", "shift", "text"};
    return name_in(kNames, task);
}

TrainTask train_task(const char* name) {
    return check_name("task", "task", name, &train_task_name);
}

namespace {

// The id of one ASCII byte (0: other; '\r' is dropped before this).
std::int32_t ascii_id(unsigned char c) {
    if (c == ' ' || c == '\t') return 1;
    if (c == '\n') return 2;
    if (c >= 'a' && c <= 'z') return 3 + (c - 'a');
    if (c >= 'A' && c <= 'Z') return 3 + (c - 'A');
    if (c >= '0' && c <= '9') return 29 + (c - '0');
    const char* at = c ? std::strchr(kTextPunctuation, c) : nullptr;
    return at ? static_cast<std::int32_t>(39 + (at - kTextPunctuation)) : 0;
}

// The length of the UTF-8 sequence starting at s[i] (2..4) if it is
// well-formed (lead byte, then continuation bytes 10xxxxxx), else 1.
std::size_t utf8_length(const std::string& s, std::size_t i) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 ? (b <= 0xEF ? 3 : 1) : b >= 0xC2 ? 2 : 1;
    if (n == 1 || i + n > s.size()) return 1;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 1;
    return n;
}

}  // namespace

std::vector<std::int32_t> text_tokens(const std::string& utf8) {
    std::vector<std::int32_t> ids;
    ids.reserve(utf8.size());
    for (std::size_t i = 0; i < utf8.size();) {
        const auto c = static_cast<unsigned char>(utf8[i]);
        if (c < 0x80) {
            if (c != '\r') ids.push_back(ascii_id(c));
            ++i;
        } else {
            ids.push_back(0);  // one code point (or one stray byte): other
            i += utf8_length(utf8, i);
        }
    }
    return ids;
}

std::string text_char(std::int32_t id) {
    if (id == 1) return " ";
    if (id == 2) return "\n";
    if (id >= 3 && id <= 28) return std::string(1, static_cast<char>('a' + id - 3));
    if (id >= 29 && id <= 38) return std::string(1, static_cast<char>('0' + id - 29));
    if (id >= 39 && id < kTextVocab) return std::string(1, kTextPunctuation[id - 39]);
    return "";
}

TextCorpus text_corpus(const std::string& utf8, std::int64_t window) {
    check_range("window", window, 1, kMaxSeqLen);
    TextCorpus c;
    c.ids = text_tokens(utf8);
    const auto n = static_cast<std::int64_t>(c.ids.size());
    if (n < 10 * (window + 1))
        throw RangeError("the text has " + std::to_string(n) + " characters; a window of " + std::to_string(window) +
                             " needs at least " + std::to_string(10 * (window + 1)) +
                             " (a tenth is held out for validation and must hold a window plus its next character)",
                         {"text"}, {double(n), double(10 * (window + 1))});
    c.train_end = n - n / 10;
    return c;
}

// tokens, targets: (batch, length)
void text_batch(std::int32_t* tokens, std::int32_t* targets, const TextCorpus& corpus, bool validation,
                std::int64_t batch, std::int64_t length, TrainRng& rng) {
    check_range("batch", batch, 1, 4096);
    check_range("length", length, 1, kMaxSeqLen);
    const std::int64_t lo = validation ? corpus.train_end : 0;
    const std::int64_t size = (validation ? static_cast<std::int64_t>(corpus.ids.size()) : corpus.train_end) - lo;
    if (size < length + 1)
        throw RangeError(std::string("the ") + (validation ? "validation" : "training") + " text has " +
                             std::to_string(size) + " characters, fewer than a window of " + std::to_string(length) +
                             " plus its next character",
                         {"length"}, {double(size), double(length)});
    const auto n = static_cast<std::int32_t>(size - length);  // starts lo .. lo + n - 1
    for (std::int64_t b = 0; b < batch; ++b) {
        const std::int32_t* at = corpus.ids.data() + lo + rng.below(n);
        std::copy_n(at, length, tokens + b * length);
        std::copy_n(at + 1, length, targets + b * length);
    }
}

// tokens, targets: (length)
void train_task_targets(std::int32_t* targets, const std::int32_t* tokens, TrainTask task, std::int64_t length) {
    switch (task) {
        case TrainTask::copy:
            for (std::int64_t i = 0; i < length; ++i) targets[i] = tokens[i];
            break;
        case TrainTask::reverse:
            for (std::int64_t i = 0; i < length; ++i) targets[i] = tokens[length - 1 - i];
            break;
        case TrainTask::sort: {
            // Counting sort: the vocabulary is at most 64 tokens, so a count
            // per token sorts in O(L) with no allocation.
            std::int64_t count[64] = {};
            for (std::int64_t i = 0; i < length; ++i) ++count[tokens[i]];
            std::int64_t at = 0;
            for (std::int32_t t = 0; t < 64; ++t)
                for (std::int64_t c = 0; c < count[t]; ++c) targets[at++] = t;
            break;
        }
        case TrainTask::text:  // targets come with the window (text_batch)
            for (std::int64_t i = 0; i < length; ++i) targets[i] = tokens[i];
            break;
        case TrainTask::shift:
            // The rule is relative (look one place left), the same at every
            // position and length: what a relative encoding can carry past
            // the training length. The first token has no left neighbour and
            // repeats itself.
            targets[0] = tokens[0];
            for (std::int64_t i = 1; i < length; ++i) targets[i] = tokens[i - 1];
            break;
    }
}

// tokens, targets: (batch, length)
void train_task_batch(std::int32_t* tokens, std::int32_t* targets, TrainTask task, std::int64_t batch,
                      std::int64_t length, std::int64_t vocab, TrainRng& rng) {
    check_range("batch", batch, 1, 4096);
    check_range("length", length, 1, kMaxSeqLen);
    check_range("vocab", vocab, 2, 64);
    if (task == TrainTask::text) throw TypeError("the text task draws windows of a corpus: use text_batch", {"task"});
    // pass 1: every token, sequence after sequence (the order Python replays)
    const auto v = static_cast<std::int32_t>(vocab);
    for (std::int64_t i = 0; i < batch * length; ++i) tokens[i] = rng.below(v);
    // pass 2: the task's targets
    for (std::int64_t b = 0; b < batch; ++b)
        train_task_targets(targets + b * length, tokens + b * length, task, length);
}

}  // namespace posenc
