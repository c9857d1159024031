// Size caps. A request whose output would exceed them is refused with a
// RangeError before anything is allocated, so a learner typing 1e9 into a
// box gets a message, never an out-of-memory abort. The README lists them.
#pragma once
#include <cstdint>

namespace posenc {

// Largest single output tensor, in elements (64 MiB of float32).
constexpr std::int64_t kMaxElements = std::int64_t{1} << 24;
// Largest position: float32 represents every integer up to 2^24 exactly,
// and every angle formula starts with f32(pos).
constexpr std::int64_t kMaxPosition = std::int64_t{1} << 24;
// Largest sequence length for attention and bias matrices.
constexpr std::int64_t kMaxSeqLen = 8192;
// Largest model / head dimension.
constexpr std::int64_t kMaxDim = 65536;
// Largest head count.
constexpr std::int64_t kMaxHeads = 1024;
// Largest T5 bucket count.
constexpr std::int64_t kMaxBuckets = 4096;

}  // namespace posenc
