// The backward pass of one attention head (core/attention.h computes the
// forward). With S = scale Q K^T + rel (rel: a bias that enters unscaled,
// e.g. T5's table) and W = softmax(S) row by row, given dO = d loss / d O
// for O = W V:
//   dV = W^T dO
//   dW = dO V^T
//   dS = W * (dW - rowsum(dW * W))        (softmax's backward, row by row)
//   d rel[i, j] = dS[i, j]
//   dQ = scale dS K;  dK = scale dS^T Q
// Shapes, one head, L positions, hd = head_dim, all row-major:
//   w (L, L): the forward's softmax weights; q, k, v (L, hd) as the forward
//   used them (after RoPE); dv (L, hd): dO on entry, dV on exit; dq, dk
//   (L, hd) outputs (dk is scratch first); ds (L, L) scratch.
#pragma once
#include <cstdint>

namespace posenc {

// Where d rel goes when the bias is a table looked up by offset: for every
// (i, j), table[bucket_of_offset[j - i + L - 1] * stride] += dS[i, j]
// (table points at this head's column; T5's table is (buckets, heads)).
struct RelBiasGrad {
    float* table;
    const std::int32_t* bucket_of_offset;  // (2 L - 1)
    std::int64_t stride;
};

void attention_head_backward(float* dq, float* dk, float* dv, float* ds, const float* w, const float* q, const float* k,
                             const float* v, std::int64_t L, std::int64_t hd, float scale, const RelBiasGrad* rel);

}  // namespace posenc
