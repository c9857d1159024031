// Synthetic sequence tasks for the trainer (cpp/transformer.*), and the
// random stream that draws them. Everything here is exact integer
// arithmetic, so tests/fixtures/make_trainer.py replicates it bit for bit.
//
//   copy:    target[i] = x[i]             needs no order at all
//   reverse: target[i] = x[L - 1 - i]     needs each position's index (and L)
//   sort:    target = x sorted ascending  needs each output position's index,
//                                         to know which rank it holds
//   shift:   target[i] = x[i - 1],        needs only relative order: one rule
//            target[0] = x[0]             at every position and every length
//   text:    target[i] = c[s + i + 1]     next-character prediction (a language
//            for x[i] = c[s + i]          model): a window of a text corpus c
//                                         at a random start s, under a causal mask
//
// The synthetic tasks' tokens are uniform over 0 .. vocab-1.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace posenc {

enum class TrainTask { copy, reverse, sort, shift, text };

// Parses "copy" / "reverse" / "sort" / "shift" / "text"; throws TypeError naming the
// bad value and the allowed ones.
TrainTask train_task(const char* name);
// A task's name as train_task reads it; nullptr past the last task (so a
// caller can list them all: bindings.cpp's TrainTask enum).
const char* train_task_name(TrainTask task);

// SplitMix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number
// generators"; the seeding generator of xoshiro):
//   state += 0x9E3779B97F4A7C15
//   z = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9
//   z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//   next = z ^ (z >> 31)
// Derived draws, each from one next():
//   uniform() = (next >> 40) * 2^-24      in [0, 1), 24 bits, exact in float32
//   below(n)  = (next >> 32) % n          in [0, n); the modulo bias (< n / 2^32)
//                                          is kept: Python replicates it exactly
class TrainRng {
public:
    explicit TrainRng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        state_ += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = state_;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 40) * (1.0 / 16777216.0); }
    std::int32_t below(std::int32_t n) {
        return static_cast<std::int32_t>((next() >> 32) % static_cast<std::uint64_t>(n));
    }

private:
    std::uint64_t state_;
};

// The text task's characters. Its vocabulary is kTextVocab = 64 ids:
//   0        any other character (one id per UTF-8 code point, not per byte)
//   1, 2     space, newline (a tab counts as a space; a carriage return is dropped)
//   3..28    a..z, with A..Z folded onto them
//   29..38   0..9
//   39..63   the punctuation of kTextPunctuation, in its order
// Lower case keeps the vocabulary within the trainer's 64 while the text
// still reads; the 25 marks are the most frequent in the lesson's Markdown
// and TeX (? < @ % & ! are rarer there and count as other).
constexpr std::int64_t kTextVocab = 64;
constexpr const char* kTextPunctuation = ".,:;-'\"()[]{}$_|\\`*=>#/+^";

// UTF-8 text -> ids as above. Malformed UTF-8 never fails: each byte that
// starts no valid sequence is one "other" id.
std::vector<std::int32_t> text_tokens(const std::string& utf8);
// The character each id stands for ("" for 0, the other-character id).
std::string text_char(std::int32_t id);

// A text corpus split for the text task: ids[0, train_end) for training,
// ids[train_end, size) for validation, train_end = size - size / 10 (the last
// tenth held out, in one piece, so no validation window overlaps training).
struct TextCorpus {
    std::vector<std::int32_t> ids;
    std::int64_t train_end = 0;
};
// Throws RangeError when the text has fewer than 10 * (window + 1) ids: each
// part must hold a whole window (length + 1 ids) of the training length.
TextCorpus text_corpus(const std::string& utf8, std::int64_t window);

// tokens, targets: (batch, length). For each row one start s = lo + below(n),
// drawn from rng in row order, where [lo, lo + n + length] is the part
// (training or validation) and n = its size - length: tokens = ids[s, s + L),
// targets = ids[s + 1, s + L + 1). Throws RangeError when the part is shorter
// than length + 1.
void text_batch(std::int32_t* tokens, std::int32_t* targets, const TextCorpus& corpus, bool validation,
                std::int64_t batch, std::int64_t length, TrainRng& rng);

// The targets of one sequence. tokens, targets: (length); tokens in 0..63.
// No checks (the trainer's inner loop); train_task_batch checks.
void train_task_targets(std::int32_t* targets, const std::int32_t* tokens, TrainTask task, std::int64_t length);

// tokens, targets: (batch, length), a synthetic task (not text). Draws batch * length tokens from rng in
// row-major order (sequence after sequence), then fills the targets.
// Throws RangeError for batch outside 1..4096, length outside 1..kMaxSeqLen,
// vocab outside 2..64.
void train_task_batch(std::int32_t* tokens, std::int32_t* targets, TrainTask task, std::int64_t batch,
                      std::int64_t length, std::int64_t vocab, TrainRng& rng);

}  // namespace posenc
