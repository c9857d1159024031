#include "attention.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "check.h"
#include "errors.h"
#include "caps.h"
#include "softmax.h"

namespace posenc {

// Vaswani et al. 2017, "Attention Is All You Need", eq. 1:
//   Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V
// with an additive bias (ALiBi, T5, a float mask) inside the softmax, and the
// causal mask S[i, j] = -inf for j > i.

// q, k, v, out: (seq, head_dim); weights: (seq, seq); bias: (seq, seq) or null
void attention_head_scalar(float* out, float* weights, const float* q, const float* k,
                           const float* v, const float* bias, std::int64_t seq,
                           std::int64_t head_dim, float scale, bool causal) {
    for (std::int64_t i = 0; i < seq; ++i) {
        // A causal row only sees keys 0..i: the rest never enters the sums.
        const std::int64_t len = causal ? i + 1 : seq;
        float* w = weights + i * seq;
        const float* qi = q + i * head_dim;

        // pass 1: scores S[i, j] = scale * (q_i . k_j) + bias[i, j]
        for (std::int64_t j = 0; j < len; ++j) {
            const float* kj = k + j * head_dim;
            float dot = 0.0f;
            for (std::int64_t p = 0; p < head_dim; ++p) dot += qi[p] * kj[p];
            float s = scale * dot;
            if (bias) s += bias[i * seq + j];
            w[j] = s;
        }

        // pass 2: W[i, :] = softmax(S[i, :]); masked keys get weight 0
        softmax_row_scalar(w, w, len);
        std::fill(w + len, w + seq, 0.0f);

        // pass 3: O[i, :] = sum_j W[i, j] V[j, :]
        float* oi = out + i * head_dim;
        std::fill(oi, oi + head_dim, 0.0f);
        for (std::int64_t j = 0; j < len; ++j) {
            const float wij = w[j];
            const float* vj = v + j * head_dim;
            for (std::int64_t p = 0; p < head_dim; ++p) oi[p] += wij * vj[p];
        }
    }
}

#if POSENC_SIMD
// Both products are GEMMs C = A B with B packed into panels of kPanel
// columns, each panel (kd, kPanel) contiguous, zero-padded past the last
// real column. One micro-kernel computes an (MR, kPanel) tile of C in
// registers: the A values are broadcast, the B rows loaded as two batches.
//   Q K^T: A = Q (seq, head_dim), B = K^T packed (head_dim, 8) per 8 keys
//   W V:   A = W (seq, seq),      B = V packed (seq, 8) per 8 dims
constexpr std::int64_t kPanel = 8;
constexpr std::int64_t kRows = 4;

// b: (rows, cols) row-major at stride ldb -> panels: (ceil(cols/8), rows, 8)
static void pack_panels(float* panels, const float* b, std::int64_t rows, std::int64_t cols,
                        std::int64_t ldb) {
    for (std::int64_t c0 = 0; c0 < cols; c0 += kPanel) {
        const std::int64_t nc = std::min(kPanel, cols - c0);
        float* dst = panels + (c0 / kPanel) * rows * kPanel;
        for (std::int64_t r = 0; r < rows; ++r) {
            for (std::int64_t c = 0; c < nc; ++c) dst[r * kPanel + c] = b[r * ldb + c0 + c];
            for (std::int64_t c = nc; c < kPanel; ++c) dst[r * kPanel + c] = 0.0f;
        }
    }
}

// k: (seq, head_dim) -> K^T panels: (ceil(seq/8), head_dim, 8)
static void pack_keys(float* panels, const float* k, std::int64_t seq, std::int64_t head_dim) {
    for (std::int64_t j0 = 0; j0 < seq; j0 += kPanel) {
        const std::int64_t nj = std::min(kPanel, seq - j0);
        float* dst = panels + (j0 / kPanel) * head_dim * kPanel;
        for (std::int64_t p = 0; p < head_dim; ++p) {
            for (std::int64_t j = 0; j < nj; ++j) dst[p * kPanel + j] = k[(j0 + j) * head_dim + p];
            for (std::int64_t j = nj; j < kPanel; ++j) dst[p * kPanel + j] = 0.0f;
        }
    }
}

// c: (MR, ncols <= 8) at stride ldc; a: (MR, kd) at stride lda; b: one panel (kd, 8);
// bias: (MR, ncols) at stride ldc, or null.
//   c = scale * (a b) + bias
// Only the first ncols columns of c are written (the panel's padding is not).
template <int MR>
static void tile_mr_x8(float* c, std::int64_t ldc, std::int64_t ncols, const float* a,
                       std::int64_t lda, const float* b, std::int64_t kd, float scale,
                       const float* bias) {
    // The accumulators must live in registers: the unroll pragmas make sure
    // of it at -O2 too (g++ -O2 otherwise keeps lo/hi in memory, 2x slower).
    batch_f lo[MR], hi[MR];
#pragma GCC unroll 4
    for (int r = 0; r < MR; ++r) lo[r] = hi[r] = batch_f(0.0f);
    for (std::int64_t p = 0; p < kd; ++p) {
        const batch_f b0 = xsimd::load_unaligned(b + p * kPanel);
        const batch_f b1 = xsimd::load_unaligned(b + p * kPanel + kLanes);
#pragma GCC unroll 4
        for (int r = 0; r < MR; ++r) {
            const batch_f ar(a[r * lda + p]);
            lo[r] += ar * b0;
            hi[r] += ar * b1;
        }
    }
    const batch_f bs(scale);
    for (int r = 0; r < MR; ++r) {
        alignas(16) float row[kPanel];
        (lo[r] * bs).store_aligned(row);
        (hi[r] * bs).store_aligned(row + kLanes);
        float* cr = c + r * ldc;
        if (bias)
            for (std::int64_t j = 0; j < ncols; ++j) cr[j] = row[j] + bias[r * ldc + j];
        else
            for (std::int64_t j = 0; j < ncols; ++j) cr[j] = row[j];
    }
}

// c: (m, cols) at stride ldc; a: (m, depth) at stride lda;
// panels: (ceil(cols/8), panel_rows, 8); bias: like c, or null.
//   c = scale * (a b) + bias
// For the row block of mr rows starting at i0, cols_of(i0, mr) and
// depth_of(i0, mr) say how many columns of c and how much of the inner
// dimension it needs: causal attention cuts both at the block's last row.
template <class Cols, class Depth>
static void gemm_panels(float* c, std::int64_t ldc, const float* a, std::int64_t lda,
                        const float* panels, std::int64_t panel_rows, std::int64_t m,
                        Cols cols_of, Depth depth_of, float scale, const float* bias) {
    for (std::int64_t i0 = 0; i0 < m; i0 += kRows) {
        const std::int64_t mr = std::min(kRows, m - i0);
        const std::int64_t ncols = cols_of(i0, mr);
        const std::int64_t kd = depth_of(i0, mr);
        for (std::int64_t j0 = 0; j0 < ncols; j0 += kPanel) {
            const std::int64_t nc = std::min(kPanel, ncols - j0);
            const float* panel = panels + (j0 / kPanel) * panel_rows * kPanel;
            float* ct = c + i0 * ldc + j0;
            const float* bt = bias ? bias + i0 * ldc + j0 : nullptr;
            if (mr == kRows) {
                tile_mr_x8<kRows>(ct, ldc, nc, a + i0 * lda, lda, panel, kd, scale, bt);
            } else {
                for (std::int64_t r = 0; r < mr; ++r)
                    tile_mr_x8<1>(ct + r * ldc, ldc, nc, a + (i0 + r) * lda, lda, panel, kd, scale,
                                  bt ? bt + r * ldc : nullptr);
            }
        }
    }
}

// q, k, v, out: (seq, head_dim); weights: (seq, seq); bias: (seq, seq) or null
void attention_head_simd(float* out, float* weights, const float* q, const float* k,
                         const float* v, const float* bias, std::int64_t seq,
                         std::int64_t head_dim, float scale, bool causal) {
    // Causal row block [i0, i0 + mr) needs keys 0 .. i0 + mr - 1 only; the
    // few scores past the diagonal inside the block are computed and then
    // overwritten with weight 0 in pass 2.
    auto block_end = [&](std::int64_t i0, std::int64_t mr) { return causal ? i0 + mr : seq; };
    auto all_dims = [&](std::int64_t, std::int64_t) { return head_dim; };

    // pass 0: pack K^T and V into contiguous 8-column panels
    std::vector<float> kp(static_cast<std::size_t>((seq + kPanel - 1) / kPanel * kPanel * head_dim));
    std::vector<float> vp(static_cast<std::size_t>((head_dim + kPanel - 1) / kPanel * kPanel * seq));
    pack_keys(kp.data(), k, seq, head_dim);
    pack_panels(vp.data(), v, seq, head_dim, head_dim);

    // pass 1: scores S = scale * Q K^T + bias, into weights
    gemm_panels(weights, seq, q, head_dim, kp.data(), head_dim, seq, block_end, all_dims, scale,
                bias);

    // pass 2: W = softmax(S) over each row's visible keys; masked keys get 0
    for (std::int64_t i = 0; i < seq; ++i) {
        const std::int64_t len = causal ? i + 1 : seq;
        float* w = weights + i * seq;
        softmax_row_simd(w, w, len);
        std::fill(w + len, w + seq, 0.0f);
    }

    // pass 3: O = W V, each causal row block summing over its visible keys
    gemm_panels(out, head_dim, weights, seq, vp.data(), seq, seq, all_dims, block_end, 1.0f,
                nullptr);
}
#endif

// q, k, v, out: (heads, seq, head_dim); weights: (heads, seq, seq)
void attention(float* out, float* weights, const float* q, const float* k, const float* v,
               std::int64_t heads, std::int64_t seq, std::int64_t head_dim,
               const AttentionOptions& options) {
    check_range("heads", heads, 1, kMaxHeads);
    check_range("seq", seq, 1, kMaxSeqLen);
    check_range("head_dim", head_dim, 1, kMaxDim);
    check_elements("attention weights (heads * seq * seq)", heads * seq * seq);
    check_elements("attention output (heads * seq * head_dim)", heads * seq * head_dim);
    check_finite("scale", options.scale);
    if (options.scale < 0.0f)
        throw RangeError("scale must be >= 0 (0 means 1/sqrt(head_dim)), got " +
                         format_number(options.scale));

    // The default of F.scaled_dot_product_attention: 1/sqrt(E), in double, then float32.
    const float scale = options.scale != 0.0f
                            ? options.scale
                            : static_cast<float>(1.0 / std::sqrt(static_cast<double>(head_dim)));
    const std::int64_t qkv = seq * head_dim, ss = seq * seq;
    for (std::int64_t h = 0; h < heads; ++h) {
        const float* bias = options.bias ? options.bias + h * ss : nullptr;
#if POSENC_SIMD
        attention_head_simd(out + h * qkv, weights + h * ss, q + h * qkv, k + h * qkv, v + h * qkv,
                            bias, seq, head_dim, scale, options.causal);
#else
        attention_head_scalar(out + h * qkv, weights + h * ss, q + h * qkv, k + h * qkv,
                              v + h * qkv, bias, seq, head_dim, scale, options.causal);
#endif
    }
}

}  // namespace posenc
