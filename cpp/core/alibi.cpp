#include "alibi.h"

#include <cmath>
#include <limits>
#include <vector>

#include "check.h"
#include "caps.h"

namespace posenc {

// The reference repo's get_slopes (ofirpress/attention_with_linear_biases),
// step for step in double so the float32 rounding at the end matches it:
//   start = 2^(-2^-(log2(n) - 3)) = 2^(-8/n);  slope_i = start * start^i
static void slopes_power_of_2(std::vector<double>& out, std::int64_t n) {
    const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(static_cast<double>(n)) - 3.0)));
    for (std::int64_t i = 0; i < n; ++i) out.push_back(start * std::pow(start, static_cast<double>(i)));
}

// slopes(n) = p2(n)                              n a power of two
//           = p2(c) ++ slopes(2c)[0::2][:n-c]    c = 2^floor(log2 n)
// The second part interleaves between the first part's slopes, so heads added
// to a power of two still get distinct, geometrically spread slopes.
static std::vector<double> slopes_double(std::int64_t n) {
    std::vector<double> out;
    std::int64_t c = 1;
    while (c * 2 <= n) c *= 2;
    slopes_power_of_2(out, c);
    if (c == n) return out;
    const std::vector<double> wider = slopes_double(2 * c);
    for (std::int64_t i = 0; i < n - c; ++i) out.push_back(wider[static_cast<std::size_t>(2 * i)]);
    return out;
}

// out: (heads)
void alibi_slopes(float* out, std::int64_t heads) {
    check_range("heads", heads, 1, kMaxHeads);
    const std::vector<double> s = slopes_double(heads);
    for (std::int64_t h = 0; h < heads; ++h) out[h] = static_cast<float>(s[static_cast<std::size_t>(h)]);
}

// out: (heads, seq_len, seq_len)
void alibi_bias(float* out, std::int64_t heads, std::int64_t seq_len, bool causal) {
    check_range("heads", heads, 1, kMaxHeads);
    check_range("seq_len", seq_len, 1, kMaxSeqLen);
    check_elements("alibi bias (heads * seq_len * seq_len)", heads * seq_len * seq_len, {"seq_len"});

    // pass 1: slopes
    std::vector<float> slopes(static_cast<std::size_t>(heads));
    alibi_slopes(slopes.data(), heads);

    // pass 2: bias[h,i,j] = -m_h * (i - j)  (Press et al. 2022, eq. in sec. 3);
    // one float32 multiply of -m_h by the exact f32 distance, as torch does.
    // The causal form masks the future with -inf instead of a bias.
    const float neg_inf = -std::numeric_limits<float>::infinity();
    for (std::int64_t h = 0; h < heads; ++h) {
        const float neg_m = -slopes[static_cast<std::size_t>(h)];
        float* b = out + h * seq_len * seq_len;
        for (std::int64_t i = 0; i < seq_len; ++i) {
            float* row = b + i * seq_len;
            for (std::int64_t j = 0; j <= i; ++j) row[j] = neg_m * static_cast<float>(i - j);
            if (causal)
                for (std::int64_t j = i + 1; j < seq_len; ++j) row[j] = neg_inf;
            else
                for (std::int64_t j = i + 1; j < seq_len; ++j) row[j] = neg_m * static_cast<float>(j - i);
        }
    }
}

}  // namespace posenc
