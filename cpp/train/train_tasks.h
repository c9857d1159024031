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
//
// Tokens are uniform over 0 .. vocab-1.
#pragma once
#include <cstdint>

namespace posenc {

enum class TrainTask { copy, reverse, sort, shift };

// Parses "copy" / "reverse" / "sort" / "shift"; throws TypeError naming the bad value
// and the allowed ones.
TrainTask train_task(const char* name);
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

// The targets of one sequence. tokens, targets: (length); tokens in 0..63.
// No checks (the trainer's inner loop); train_task_batch checks.
void train_task_targets(std::int32_t* targets, const std::int32_t* tokens, TrainTask task,
                        std::int64_t length);

// tokens, targets: (batch, length). Draws batch * length tokens from rng in
// row-major order (sequence after sequence), then fills the targets.
// Throws RangeError for batch outside 1..4096, length outside 1..kMaxSeqLen,
// vocab outside 2..64.
void train_task_batch(std::int32_t* tokens, std::int32_t* targets, TrainTask task,
                      std::int64_t batch, std::int64_t length, std::int64_t vocab, TrainRng& rng);

}  // namespace posenc
