// Scaled dot-product attention over several heads (Vaswani et al. 2017),
// what F.scaled_dot_product_attention computes with an additive float mask:
//
//   S = scale * Q K^T + bias          scale defaults to 1/sqrt(head_dim)
//   S[h, i, j] = -inf for j > i       when causal
//   W = softmax(S)  (rows)            a fully masked row gives zeros
//   O = W V
#pragma once
#include <cstdint>

#include "simd.h"

namespace posenc {

struct AttentionOptions {
    bool causal = false;
    const float* bias = nullptr;  // (heads, seq, seq) or null; -inf entries mask
    float scale = 0.0f;           // 0 means 1/sqrt(head_dim)
};

// q, k, v, out: (heads, seq, head_dim); weights: (heads, seq, seq).
// Throws RangeError for sizes outside 1..kMaxHeads / 1..kMaxSeqLen /
// 1..kMaxDim, outputs over kMaxElements, a non-finite or negative scale.
void attention(float* out, float* weights, const float* q, const float* k, const float* v,
               std::int64_t heads, std::int64_t seq, std::int64_t head_dim,
               const AttentionOptions& options = AttentionOptions{});

// The twins behind attention, one head (no checks). bias may be null.
void attention_head_scalar(float* out, float* weights, const float* q, const float* k,
                           const float* v, const float* bias, std::int64_t seq,
                           std::int64_t head_dim, float scale, bool causal);
#if POSENC_SIMD
void attention_head_simd(float* out, float* weights, const float* q, const float* k,
                         const float* v, const float* bias, std::int64_t seq,
                         std::int64_t head_dim, float scale, bool causal);
#endif

}  // namespace posenc
