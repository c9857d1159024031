#include "attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "check.h"
#include "errors.h"
#include "grow.h"
#include "caps.h"
#include "alibi.h"
#include "softmax.h"
#include "t5_bias.h"

namespace posenc {

// Vaswani et al. 2017, "Attention Is All You Need", eq. 1:
//   Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V
// with an additive bias (ALiBi, T5, a float mask) inside the softmax, and the
// causal mask S[i, j] = -inf for j > i.

namespace scalar {

// out: (seq, head_dim); weights: (seq, seq) or null
void attention_head(float* out, float* weights, const AttentionHead& head, AttentionWorkspace& ws) {
    const std::int64_t seq = head.seq, d = head.head_dim;
    float* scratch = weights ? nullptr : grow(ws.rows, seq);
    for (std::int64_t i = 0; i < seq; ++i) {
        // A causal row only sees keys 0..i: the rest never enters the sums.
        const std::int64_t len = head.causal ? i + 1 : seq;
        float* w = weights ? weights + i * seq : scratch;
        const float* qi = head.q + i * d;

        // pass 1: scores S[i, j] = scale * (q_i . k_j) + bias[i, j] + rel(j - i)
        for (std::int64_t j = 0; j < len; ++j) {
            const float* kj = head.k + j * d;
            float dot = 0.0f;
            for (std::int64_t p = 0; p < d; ++p) dot += qi[p] * kj[p];
            float s = head.scale * dot;
            if (head.bias) s += head.bias[i * seq + j];
            if (head.rel_bias) s += head.rel_bias[j - i];
            w[j] = s;
        }

        // pass 2: W[i, :] = softmax(S[i, :]); masked keys get weight 0
        softmax_row(w, w, len);
        if (weights) std::fill(w + len, w + seq, 0.0f);

        // pass 3: O[i, :] = sum_j W[i, j] V[j, :]
        float* oi = out + i * d;
        std::fill(oi, oi + d, 0.0f);
        for (std::int64_t j = 0; j < len; ++j) {
            const float wij = w[j];
            const float* vj = head.v + j * d;
            for (std::int64_t p = 0; p < d; ++p) oi[p] += wij * vj[p];
        }
    }
}

}  // namespace scalar

#if POSENC_SIMD
namespace simd {

// Both products are GEMMs C = A B with B packed into panels of kPanel
// columns, each panel (kd, kPanel) contiguous, zero-padded past the last
// real column. One micro-kernel computes an (MR, kPanel) tile of C in
// registers: the A values are broadcast, the B rows loaded as two batches.
//   Q K^T: A = Q (seq, head_dim), B = K^T packed (head_dim, 8) per 8 keys
//   W V:   A = W (seq, seq),      B = V packed (seq, 8) per 8 dims
// The head is walked in blocks of kRows query rows: scores, softmax and W V
// of a block follow each other while its rows (kRows * seq floats) are in L1.
// Why not train/gemm.h's kernels: those write C whole; this one is fused
// with the scale, the bias, the causal cut and the row max (Q K^T) and with
// the softmax'd rows still in L1 (W V), and the core cannot link the
// trainer's library anyway.
constexpr std::int64_t kPanel = 8;
constexpr std::int64_t kRows = 4;

// b: (rows, cols) row-major at stride ldb -> panels: (ceil(cols/8), rows, 8)
static void pack_panels(float* panels, const float* b, std::int64_t rows, std::int64_t cols, std::int64_t ldb) {
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

// a: (MR, kd) at stride lda; b: one panel (kd, 8).
//   lo[r] | hi[r] = (a b)[r, 0..8)
template <int MR>
static inline void tile_mr_x8(batch_f (&lo)[MR], batch_f (&hi)[MR], const float* a, std::int64_t lda, const float* b,
                              std::int64_t kd) {
    // The accumulators must live in registers: the unroll pragmas make sure
    // of it at -O2 too (g++ -O2 otherwise keeps lo/hi in memory, 2x slower).
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
}

// The running max of one score row over its visible keys: lanes, then a
// scalar part for the tiles the causal diagonal or the row's end cut. A NaN
// may be dropped here; softmax_row_with_max finds it in the sum.
struct RowMax {
    // (not brace-initialised: batch_f{x} is xsimd's 4-value initializer list)
    batch_f lanes = batch_f(-std::numeric_limits<float>::infinity());
    float m = -std::numeric_limits<float>::infinity();

    void add(float s) { m = std::max(m, s); }
    void add(const batch_f& s) { lanes = pmax(lanes, s); }
    float finish() {
        alignas(16) float l[kLanes];
        lanes.store_aligned(l);
        for (float x : l) m = std::max(m, x);
        return m;
    }
};

// Scores of query rows i0 .. i0 + MR - 1 against keys j0 .. j0 + nc - 1 (nc <= 8),
// from the accumulated dot products lo | hi:
//   w[r][j] = scale * dot + bias[i, j] + rel(j - i)
// written while the tile is in registers, the row max taken on the way over
// the visible keys (j <= i when causal; the rest is overwritten by 0 later).
template <int MR>
static inline void score_tile(float* const (&w)[MR], RowMax (&rmax)[MR], const batch_f (&lo)[MR],
                              const batch_f (&hi)[MR], const AttentionHead& head, std::int64_t i0, std::int64_t j0,
                              std::int64_t nc) {
    const batch_f bs(head.scale);
    for (int r = 0; r < MR; ++r) {
        const std::int64_t i = i0 + r;
        const float* bias = head.bias ? head.bias + i * head.seq + j0 : nullptr;
        const float* rel = head.rel_bias ? head.rel_bias + (j0 - i) : nullptr;
        batch_f s0 = lo[r] * bs, s1 = hi[r] * bs;
        float* wr = w[r] + j0;
        const std::int64_t visible = head.causal ? std::min(nc, i - j0 + 1) : nc;
        if (visible == kPanel) {
            // the common tile: all 8 keys real and visible
            if (bias) {
                s0 += xsimd::load_unaligned(bias);
                s1 += xsimd::load_unaligned(bias + kLanes);
            }
            if (rel) {
                s0 += xsimd::load_unaligned(rel);
                s1 += xsimd::load_unaligned(rel + kLanes);
            }
            s0.store_unaligned(wr);
            s1.store_unaligned(wr + kLanes);
            rmax[r].add(s0);
            rmax[r].add(s1);
        } else {
            // a tile cut by the row's end or the causal diagonal
            alignas(16) float t[kPanel];
            s0.store_aligned(t);
            s1.store_aligned(t + kLanes);
            for (std::int64_t j = 0; j < nc; ++j) {
                float s = t[j];
                if (bias) s += bias[j];
                if (rel) s += rel[j];
                wr[j] = s;
                if (j < visible) rmax[r].add(s);
            }
        }
    }
}

// out: (MR, head_dim) at stride head_dim; w: (MR, kd) at stride seq; value
// panels: (ceil(head_dim/8), seq, 8).
//   out = w V[0..kd)
template <int MR>
static inline void weighted_values(float* out, const float* w, const float* value_panels, std::int64_t seq,
                                   std::int64_t head_dim, std::int64_t kd) {
    for (std::int64_t c0 = 0; c0 < head_dim; c0 += kPanel) {
        const std::int64_t nc = std::min(kPanel, head_dim - c0);
        batch_f lo[MR], hi[MR];
        tile_mr_x8<MR>(lo, hi, w, seq, value_panels + (c0 / kPanel) * seq * kPanel, kd);
        for (int r = 0; r < MR; ++r) {
            float* o = out + r * head_dim + c0;
            if (nc == kPanel) {
                lo[r].store_unaligned(o);
                hi[r].store_unaligned(o + kLanes);
            } else {
                alignas(16) float t[kPanel];
                lo[r].store_aligned(t);
                hi[r].store_aligned(t + kLanes);
                std::copy(t, t + nc, o);
            }
        }
    }
}

// One block of MR query rows starting at i0, the three passes fused per block.
template <int MR>
static void attention_block(float* out, float* const (&w)[MR], const AttentionHead& head, const float* key_panels,
                            const float* value_panels, std::int64_t i0, bool full_rows) {
    const std::int64_t seq = head.seq, d = head.head_dim;
    // Causal rows i0 .. i0 + MR - 1 need keys 0 .. i0 + MR - 1 only; the few
    // scores past the diagonal inside the block are computed, then set to 0.
    const std::int64_t end = head.causal ? i0 + MR : seq;

    // pass 1: scores S = scale * Q K^T + bias + rel, and each row's max
    RowMax rmax[MR];
    for (std::int64_t j0 = 0; j0 < end; j0 += kPanel) {
        batch_f lo[MR], hi[MR];
        tile_mr_x8<MR>(lo, hi, head.q + i0 * d, d, key_panels + (j0 / kPanel) * d * kPanel, d);
        score_tile<MR>(w, rmax, lo, hi, head, i0, j0, std::min(kPanel, end - j0));
    }

    // pass 2: W = softmax(S) over each row's visible keys; masked keys get 0
    // (up to `end` for pass 3, and to seq when the rows are the caller's weights)
    for (int r = 0; r < MR; ++r) {
        const std::int64_t len = head.causal ? i0 + r + 1 : seq;
        softmax_row_with_max(w[r], w[r], len, rmax[r].finish());
        std::fill(w[r] + len, w[r] + (full_rows ? seq : end), 0.0f);
    }

    // pass 3: O = W V over the block's visible keys
    weighted_values<MR>(out + i0 * d, w[0], value_panels, seq, d, end);
}

// out: (seq, head_dim); weights: (seq, seq) or null
void attention_head(float* out, float* weights, const AttentionHead& head, AttentionWorkspace& ws) {
    const std::int64_t seq = head.seq, d = head.head_dim;

    // pass 0: pack K^T and V into contiguous 8-column panels
    float* kp = grow(ws.key_panels, (seq + kPanel - 1) / kPanel * kPanel * d);
    float* vp = grow(ws.value_panels, (d + kPanel - 1) / kPanel * kPanel * seq);
    pack_keys(kp, head.k, seq, d);
    pack_panels(vp, head.v, seq, d, d);

    // passes 1-3 per block of kRows query rows, into the caller's weights or
    // into kRows scratch rows (stride seq either way)
    float* scratch = weights ? nullptr : grow(ws.rows, kRows * seq);
    auto row = [&](std::int64_t i) { return weights ? weights + i * seq : scratch + (i % kRows) * seq; };
    std::int64_t i0 = 0;
    for (; i0 + kRows <= seq; i0 += kRows) {
        float* const w[kRows] = {row(i0), row(i0 + 1), row(i0 + 2), row(i0 + 3)};
        attention_block<kRows>(out, w, head, kp, vp, i0, weights != nullptr);
    }
    for (; i0 < seq; ++i0) {
        float* const w[1] = {row(i0)};
        attention_block<1>(out, w, head, kp, vp, i0, weights != nullptr);
    }
}

}  // namespace simd
#endif

// The T5 bucket of every offset j - i in -(seq-1) .. seq-1, into
// buckets[0 .. 2 seq - 1) (offset 0 at seq - 1). A bad configuration throws
// t5_bucket's RangeError, prefixed so the caller knows which option is meant.
static void t5_offset_buckets(std::int32_t* buckets, std::int64_t seq, const AttentionOptions& o) {
    try {
        for (std::int64_t rel = -(seq - 1); rel < seq; ++rel)
            buckets[rel + seq - 1] = t5_bucket(rel, o.t5_bidirectional, o.t5_num_buckets, o.t5_max_distance);
    } catch (const RangeError& e) {
        throw RangeError(std::string("t5 bias: ") + e.what(), e);
    }
}

// q, k, v, out: (heads, seq, head_dim); weights: (heads, seq, seq) or null
void attention(float* out, float* weights, const float* q, const float* k, const float* v, std::int64_t heads,
               std::int64_t seq, std::int64_t head_dim, const AttentionOptions& options) {
    check_range("heads", heads, 1, kMaxHeads);
    check_range("seq", seq, 1, kMaxSeqLen);
    check_range("head_dim", head_dim, 1, kMaxDim);
    if (options.want_weights) check_elements("attention weights (heads * seq * seq)", heads * seq * seq);
    check_elements("attention output (heads * seq * head_dim)", heads * seq * head_dim, {"head_dim"});
    if (options.scale) check_finite("scale", *options.scale);
    AttentionWorkspace local;
    AttentionWorkspace& ws = options.workspace ? *options.workspace : local;
    const std::int64_t offsets = 2 * seq - 1;
    std::int32_t* buckets = options.t5_table ? grow(ws.buckets, offsets) : nullptr;
    if (buckets) t5_offset_buckets(buckets, seq, options);
    if (options.want_weights && !weights)
        throw TypeError("weights must not be null when want_weights is set", {"want_weights"});

    // The default of F.scaled_dot_product_attention: 1/sqrt(E), in double, then float32.
    const float scale =
        options.scale ? *options.scale : static_cast<float>(1.0 / std::sqrt(static_cast<double>(head_dim)));
    float* slopes = options.alibi ? grow(ws.slopes, heads) : nullptr;
    if (slopes && ws.slopes_heads != heads) {
        alibi_slopes(slopes, heads);
        ws.slopes_heads = heads;
    }
    float* rel = slopes || buckets ? grow(ws.rel_bias, offsets) + (seq - 1) : nullptr;

    const std::int64_t qkv = seq * head_dim, ss = seq * seq;
    for (std::int64_t h = 0; h < heads; ++h) {
        // rel(j - i) of this head, one value per offset:
        //   ALiBi (Press et al. 2022): -m_h * |i - j|, f32(-m_h) times the exact
        //   f32 distance, the values alibi_bias materialises;
        //   T5 (Raffel et al. 2020): table[bucket(j - i), h].
        if (rel) {
            const float neg_m = slopes ? -slopes[h] : 0.0f;
            for (std::int64_t t = -(seq - 1); t < seq; ++t) {
                float b = slopes ? neg_m * static_cast<float>(t < 0 ? -t : t) : 0.0f;
                if (buckets) {
                    const float t5 = options.t5_table[buckets[t + seq - 1] * heads + h];
                    b = slopes ? b + t5 : t5;
                }
                rel[t] = b;
            }
        }
        const AttentionHead head{
            q + h * qkv, k + h * qkv, v + h * qkv,   options.bias ? options.bias + h * ss : nullptr, rel, seq,
            head_dim,    scale,       options.causal};
        float* w = options.want_weights ? weights + h * ss : nullptr;
        kernels::attention_head(out + h * qkv, w, head, ws);
    }
}

}  // namespace posenc
