// Dense float32 matrix products for the trainer (cpp/transformer.*): the
// three layouts a linear layer's forward and backward passes need, so no
// caller ever transposes a matrix in memory.
//
//   gemm_nn:  C (m, n) [+]= A (m, k)   * B (k, n)      forward   y = x W
//   gemm_nt:  C (m, n) [+]= A (m, k)   * B (n, k)^T    backward  dx = dy W^T
//   gemm_tn:  C (m, n) [+]= A (k, m)^T * B (k, n)      backward  dW = x^T dy
//
// All row-major and densely packed. With accumulate = false C is
// overwritten, with true the product is added to it. C must not alias A or
// B. Each entry is a float32 sum over k; the summation order is the
// kernel's own (the SIMD and scalar twins may differ in the last bits).
// No argument checks: callers are internal and pass sizes >= 0.
#pragma once
#include <cstdint>

#include "simd.h"

namespace posenc {

// Twins under one name each (simd.h): scalar::gemm_* are plain loops (every
// build), simd::gemm_* register-blocked xsimd kernels (POSENC_SIMD builds);
// callers take kernels::gemm_*. Same contract as above.
namespace scalar {
void gemm_nn(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n, bool accumulate);
void gemm_nt(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n, bool accumulate);
void gemm_tn(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n, bool accumulate);
}  // namespace scalar
#if POSENC_SIMD
namespace simd {
void gemm_nn(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n, bool accumulate);
void gemm_nt(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n, bool accumulate);
void gemm_tn(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n, bool accumulate);
}  // namespace simd
#endif

}  // namespace posenc
