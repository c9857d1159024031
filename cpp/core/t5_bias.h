// T5 relative position buckets (Raffel et al. 2020; HF
// T5Attention._relative_position_bucket). Nearby offsets get a bucket each,
// farther ones share log-spaced buckets, everything past max_distance shares
// the last one. A learned (num_buckets, heads) table turns buckets into a
// per-head bias added to the raw (unscaled) scores.
//
//   rel = key_pos - query_pos
//   bidirectional: nb = num_buckets/2; bucket = (rel > 0) * nb; rel = |rel|
//   causal:        nb = num_buckets;   bucket = 0;  rel = -min(rel, 0)
//   max_exact = nb / 2
//   rel < max_exact: bucket += rel
//   else:            bucket += min(max_exact + trunc(f32(log(f32(rel)/max_exact))
//                                   / f32(log(max_distance/max_exact)) * (nb - max_exact)), nb - 1)
// The log branch runs only when rel >= max_exact (log 0 = -inf, and casting
// -inf to int is undefined behaviour in C++).
#pragma once
#include <cstdint>

namespace posenc {

// T5's own configuration (relative_attention_num_buckets and
// relative_attention_max_distance in Hugging Face's T5Config): the defaults
// of every T5 path here, the trainer's and the JS API's (buildInfo).
constexpr std::int64_t kT5DefaultBuckets = 32;
constexpr std::int64_t kT5DefaultMaxDistance = 128;

// One bucket. num_buckets >= 2 (>= 4 when bidirectional), max_distance > max_exact.
std::int32_t t5_bucket(std::int64_t rel, bool bidirectional, std::int64_t num_buckets, std::int64_t max_distance);

// out: (query_len, key_len), out[i, j] = t5_bucket(j - i, ...).
void t5_buckets(std::int32_t* out, std::int64_t query_len, std::int64_t key_len, bool bidirectional = true,
                std::int64_t num_buckets = kT5DefaultBuckets, std::int64_t max_distance = kT5DefaultMaxDistance);

}  // namespace posenc
