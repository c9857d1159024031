#include "attention_backward.h"

#include <cstring>

#include "gemm.h"

namespace posenc {

void attention_head_backward(float* dq, float* dk, float* dv, float* ds, const float* w, const float* q, const float* k,
                             const float* v, std::int64_t L, std::int64_t hd, float scale, const RelBiasGrad* rel) {
    // pass 1: dW = dO V^T, then dO is free to become dV = W^T dO
    kernels::gemm_nt(ds, dv, v, L, hd, L, false);
    kernels::gemm_tn(dk, w, dv, L, L, hd, false);  // dk as scratch for dV
    std::memcpy(dv, dk, sizeof(float) * static_cast<std::size_t>(L * hd));
    // pass 2: dS = W * (dW - rowsum(dW * W)); the bias gradient; then the scale
    for (std::int64_t i = 0; i < L; ++i) {
        float* dsr = ds + i * L;
        const float* wr = w + i * L;
        float dot = 0;
        for (std::int64_t j = 0; j < L; ++j) dot += dsr[j] * wr[j];
        for (std::int64_t j = 0; j < L; ++j) dsr[j] = wr[j] * (dsr[j] - dot);
        if (rel)
            for (std::int64_t j = 0; j < L; ++j)
                rel->table[rel->bucket_of_offset[j - i + L - 1] * rel->stride] += dsr[j];
        for (std::int64_t j = 0; j < L; ++j) dsr[j] *= scale;
    }
    // pass 3: dQ = scale dS K;  dK = scale dS^T Q
    kernels::gemm_nn(dq, ds, k, L, L, hd, false);
    kernels::gemm_tn(dk, ds, q, L, L, hd, false);
}

}  // namespace posenc
