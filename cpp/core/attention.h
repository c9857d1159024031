// Scaled dot-product attention over several heads (Vaswani et al. 2017),
// what F.scaled_dot_product_attention computes with an additive float mask:
//
//   S = scale * Q K^T + bias + rel(j - i)   scale defaults to 1/sqrt(head_dim)
//   S[h, i, j] = -inf for j > i              when causal
//   W = softmax(S)  (rows)                   a fully masked row gives zeros
//   O = W V
//
// rel(j - i) is a relative-position bias computed on the fly, never as a
// (seq, seq) matrix: ALiBi's -m_h * |i - j| and/or a learned T5 table looked
// up by bucket(j - i). When both are on, rel = alibi + t5 (summed first).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "simd.h"
#include "t5_bias.h"

namespace posenc {

// Grow-only scratch for attention: with one passed in, repeated calls
// allocate nothing once it has grown to the largest sizes seen. Its contents
// between calls are meaningless; one workspace serves one call at a time.
struct AttentionWorkspace {
    std::vector<float> key_panels;      // K^T packed in 8-key panels (SIMD twin)
    std::vector<float> value_panels;    // V packed in 8-dim panels (SIMD twin)
    std::vector<float> rows;            // score rows when the weights are not wanted
    std::vector<float> rel_bias;        // (2 seq - 1): one head's rel(j - i)
    std::vector<float> slopes;          // ALiBi slopes of slopes_heads heads
    std::int64_t slopes_heads = 0;      // (computing them allocates: kept across calls)
    std::vector<std::int32_t> buckets;  // (2 seq - 1): T5 bucket of each offset
};

struct AttentionOptions {
    bool causal = false;
    const float* bias = nullptr;  // (heads, seq, seq) or null; -inf entries mask
    // Scores are multiplied by this; unset means F.scaled_dot_product_attention's
    // default 1/sqrt(head_dim). Any finite value is allowed (0 gives uniform
    // weights), as in PyTorch.
    std::optional<float> scale;

    // ALiBi (Press et al. 2022): adds -m_h * |i - j| with m = alibi_slopes(heads),
    // the same float32 values alibi_bias(heads, seq, causal) materialises
    // (for causal, the keys j > i are masked anyway).
    bool alibi = false;

    // T5 relative bias (Raffel et al. 2020): (t5_num_buckets, heads)
    // row-major, or null for none. Adds t5_table[bucket(j - i) * heads + h],
    // buckets as t5_bucket(j - i, t5_bidirectional, t5_num_buckets,
    // t5_max_distance). T5 itself does not scale scores: pass scale = 1.
    const float* t5_table = nullptr;
    bool t5_bidirectional = true;
    std::int64_t t5_num_buckets = kT5DefaultBuckets;
    std::int64_t t5_max_distance = kT5DefaultMaxDistance;

    // false: `weights` may be null and nothing of size (heads, seq, seq) is
    // written; only the output is computed.
    bool want_weights = true;

    // Reused scratch (see AttentionWorkspace), or null for a fresh one per call.
    AttentionWorkspace* workspace = nullptr;
};

// q, k, v, out: (heads, seq, head_dim); weights: (heads, seq, seq), or null
// when !options.want_weights.
// Throws RangeError for sizes outside 1..kMaxHeads / 1..kMaxSeqLen /
// 1..kMaxDim, outputs over kMaxElements, a non-finite or negative scale, a
// bad T5 configuration (message prefixed "t5 bias: "); TypeError for a null
// weights pointer when want_weights.
void attention(float* out, float* weights, const float* q, const float* k, const float* v, std::int64_t heads,
               std::int64_t seq, std::int64_t head_dim, const AttentionOptions& options = AttentionOptions{});

// One head, as the twins see it (no checks).
struct AttentionHead {
    const float* q;         // (seq, head_dim)
    const float* k;         // (seq, head_dim)
    const float* v;         // (seq, head_dim)
    const float* bias;      // (seq, seq) or null
    const float* rel_bias;  // rel_bias[j - i] for j - i in -(seq-1)..seq-1 (points at
                            // offset 0 of a 2 seq - 1 array), or null
    std::int64_t seq;
    std::int64_t head_dim;
    float scale;
    bool causal;
};

// The twins behind attention, one head: scalar::attention_head and, in SIMD
// builds, simd::attention_head (simd.h). out: (seq, head_dim); weights:
// (seq, seq) or null (then the rows live in ws.rows).
namespace scalar {
void attention_head(float* out, float* weights, const AttentionHead& head, AttentionWorkspace& ws);
}  // namespace scalar
#if POSENC_SIMD
namespace simd {
void attention_head(float* out, float* weights, const AttentionHead& head, AttentionWorkspace& ws);
}  // namespace simd
#endif

}  // namespace posenc
