// ALiBi, Attention with Linear Biases (Press, Smith & Lewis 2022, "Train
// Short, Test Long"). No position vectors at all: head h adds -m_h * distance
// to its attention scores.
//
//   p2(n)     = [2^(-8(i+1)/n) for i in 0..n-1]
//   slopes(n) = p2(n)                                  n a power of two
//             = p2(c) ++ slopes(2c)[0::2][:n-c]        c = 2^floor(log2 n)
//   (computed in double as the reference repo does, stored as float32)
//
//   causal:    bias[h,i,j] = -m_h * (i - j)  for j <= i;  -inf for j > i
//   symmetric: bias[h,i,j] = -m_h * |i - j|
#pragma once
#include <cstdint>

namespace posenc {

// out: (heads). heads in 1..kMaxHeads.
void alibi_slopes(float* out, std::int64_t heads);

// out: (heads, seq_len, seq_len). seq_len in 1..kMaxSeqLen; output capped.
// The bias is f32(-slope * f32(i - j)) (one float32 multiply, like torch).
void alibi_bias(float* out, std::int64_t heads, std::int64_t seq_len, bool causal);

}  // namespace posenc
