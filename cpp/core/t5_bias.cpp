#include "t5_bias.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "check.h"
#include "errors.h"
#include "caps.h"

namespace posenc {

// The checks t5_bucket and t5_buckets share.
static void check_bucket_args(bool bidirectional, std::int64_t num_buckets, std::int64_t max_distance) {
    check_range("num_buckets", num_buckets, bidirectional ? 4 : 2, kMaxBuckets);
    // Bidirectional splits the buckets into two equal halves (past, future).
    if (bidirectional && num_buckets % 2 != 0)
        throw RangeError("num_buckets must be even when bidirectional, got " + std::to_string(num_buckets),
                         {"num_buckets"}, {double(num_buckets)});
    const std::int64_t nb = bidirectional ? num_buckets / 2 : num_buckets;
    const std::int64_t max_exact = nb / 2;
    // log(max_distance / max_exact) is the divisor of the log branch: it must be > 0.
    if (max_distance <= max_exact || max_distance > kMaxPosition)
        throw RangeError("max_distance must be greater than max_exact = " + std::to_string(max_exact) +
                             " (a quarter of num_buckets when bidirectional, half otherwise) and at most " +
                             std::to_string(kMaxPosition) + ", got " + std::to_string(max_distance),
                         {"max_distance", "num_buckets"},
                         {double(max_distance), double(max_exact), double(kMaxPosition)});
}

// The unchecked bucket, HF's _relative_position_bucket step for step in float32.
static std::int32_t bucket_of(std::int64_t rel, bool bidirectional, std::int64_t num_buckets, float log_ratio) {
    std::int64_t nb = num_buckets;
    std::int64_t bucket = 0;
    if (bidirectional) {
        nb /= 2;
        if (rel > 0) bucket += nb;  // keys after the query use the upper half
        rel = rel < 0 ? -rel : rel;
    } else {
        rel = rel < 0 ? -rel : 0;  // -min(rel, 0): only the past is told apart
    }
    const std::int64_t max_exact = nb / 2;
    if (rel < max_exact) return static_cast<std::int32_t>(bucket + rel);

    // Raffel et al. 2020 (T5), log-spaced buckets past max_exact:
    //   max_exact + trunc(log(rel / max_exact) / log(max_distance / max_exact) * (nb - max_exact))
    // Each step rounded to float32 as torch does; only reached when rel >= max_exact, so
    // the log is >= 0 and the truncation is defined.
    const float ratio = static_cast<float>(rel) / static_cast<float>(max_exact);
    const float scaled = std::log(ratio) / log_ratio * static_cast<float>(nb - max_exact);
    const std::int64_t large = max_exact + static_cast<std::int64_t>(scaled);
    return static_cast<std::int32_t>(bucket + std::min(large, nb - 1));
}

// math.log(max_distance / max_exact) in double, then rounded to float32 when
// torch divides a float32 tensor by it.
static float log_ratio_of(bool bidirectional, std::int64_t num_buckets, std::int64_t max_distance) {
    const std::int64_t nb = bidirectional ? num_buckets / 2 : num_buckets;
    const std::int64_t max_exact = nb / 2;
    return static_cast<float>(std::log(static_cast<double>(max_distance) / static_cast<double>(max_exact)));
}

std::int32_t t5_bucket(std::int64_t rel, bool bidirectional, std::int64_t num_buckets, std::int64_t max_distance) {
    check_range("rel", rel, -kMaxPosition, kMaxPosition);
    check_bucket_args(bidirectional, num_buckets, max_distance);
    return bucket_of(rel, bidirectional, num_buckets, log_ratio_of(bidirectional, num_buckets, max_distance));
}

// out: (query_len, key_len)
void t5_buckets(std::int32_t* out, std::int64_t query_len, std::int64_t key_len, bool bidirectional,
                std::int64_t num_buckets, std::int64_t max_distance) {
    check_range("query_len", query_len, 1, kMaxSeqLen);
    check_range("key_len", key_len, 1, kMaxSeqLen);
    check_elements("t5 buckets (query_len * key_len)", query_len * key_len, {"query_len", "key_len"});
    check_bucket_args(bidirectional, num_buckets, max_distance);

    // The bucket depends only on j - i: compute each offset once, then copy
    // the diagonals out (query_len + key_len - 1 logs instead of one per cell).
    const float log_ratio = log_ratio_of(bidirectional, num_buckets, max_distance);
    const std::int64_t lo = -(query_len - 1);
    std::vector<std::int32_t> by_rel(static_cast<std::size_t>(query_len + key_len - 1));
    for (std::int64_t rel = lo; rel < key_len; ++rel)
        by_rel[static_cast<std::size_t>(rel - lo)] = bucket_of(rel, bidirectional, num_buckets, log_ratio);
    for (std::int64_t i = 0; i < query_len; ++i) {
        const std::int32_t* src = by_rel.data() + (-i - lo);  // rel = j - i starts at -i
        std::copy(src, src + key_len, out + i * key_len);
    }
}

}  // namespace posenc
