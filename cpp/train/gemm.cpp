// Matrix products for the trainer's linear layers. Each layout has a scalar
// twin with the plain cache-friendly loop order and, under POSENC_SIMD, a
// register-blocked xsimd kernel beside it; callers take kernels:: (simd.h).
#include "gemm.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace posenc {
namespace scalar {

// c: (m, n); a: (m, k); b: (k, n)
// C[i, :] (+)= sum_p A[i, p] B[p, :]. The i-p-j order walks B and the row of
// C with unit stride, so the inner loop streams through contiguous memory.
void gemm_nn(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n,
             bool accumulate) {
    for (std::int64_t i = 0; i < m; ++i) {
        float* ci = c + i * n;
        if (!accumulate) std::fill(ci, ci + n, 0.0f);
        for (std::int64_t p = 0; p < k; ++p) {
            const float aip = a[i * k + p];
            const float* bp = b + p * n;
            for (std::int64_t j = 0; j < n; ++j) ci[j] += aip * bp[j];
        }
    }
}

// c: (m, n); a: (m, k); b: (n, k)
// C[i, j] (+)= A[i, :] . B[j, :]: both operands are rows, so each entry is a
// unit-stride dot product.
void gemm_nt(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n,
             bool accumulate) {
    for (std::int64_t i = 0; i < m; ++i) {
        const float* ai = a + i * k;
        for (std::int64_t j = 0; j < n; ++j) {
            const float* bj = b + j * k;
            float s = 0.0f;
            for (std::int64_t p = 0; p < k; ++p) s += ai[p] * bj[p];
            c[i * n + j] = accumulate ? c[i * n + j] + s : s;
        }
    }
}

// c: (m, n); a: (k, m); b: (k, n)
// C (+)= sum_p A[p, :]^T B[p, :], one rank-1 update per p: row p of A and
// row p of B are read once each, C's rows with unit stride.
void gemm_tn(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n,
             bool accumulate) {
    if (!accumulate) std::fill(c, c + m * n, 0.0f);
    for (std::int64_t p = 0; p < k; ++p) {
        const float* ap = a + p * m;
        const float* bp = b + p * n;
        for (std::int64_t i = 0; i < m; ++i) {
            const float api = ap[i];
            float* ci = c + i * n;
            for (std::int64_t j = 0; j < n; ++j) ci[j] += api * bp[j];
        }
    }
}

}  // namespace scalar

#if POSENC_SIMD
namespace simd {
namespace {

// Where a block's sums start: from zero (overwrite), from C (accumulate,
// the scalar nn/tn twins' order: c + a0 b0 + a1 b1 + ...), or from zero with
// C added at the end (accumulate, the scalar nt twin's order: c + (a0 b0 +
// ...)). Each SIMD kernel picks the one its scalar twin uses, so twin and
// kernel add the same products in the same order and agree bit for bit.
enum class Init { zero, from_c, add_c_last };

// The block's loops over its MR rows and NB batches must be unrolled so that
// the accumulator array becomes registers; g++ -O2 leaves them rolled and
// keeps the accumulators on the stack (19 instead of 47 GFLOP/s natively).
#define POSENC_UNROLL _Pragma("GCC unroll 8")

// c: (MR, NB * kLanes) at row stride ldc; a: element (r, p) at
// a[r * a_rs + p * a_cs]; b: (k, NB * kLanes) at row stride ldb.
// The register block: MR x NB batches of C stay in registers through the
// whole k loop, so each loaded B batch serves MR rows and each broadcast A
// value serves NB batches. 4 x 2 needs 8 accumulators + 2 B batches + 1
// broadcast: V8 on x64 has 16 xmm registers, and the wider blocks spill
// (wasm SIMD, m = 512, k, n in {64, 256}: 4 x 2 at 41-54 GFLOP/s, 2 x 4 the
// same within noise, 4 x 3, 6 x 2, 8 x 2 and 4 x 4 at 29-35).
template <int MR, int NB>
void block_simd(float* c, std::int64_t ldc, const float* a, std::int64_t a_rs, std::int64_t a_cs, const float* b,
                std::int64_t ldb, std::int64_t k, Init init) {
    const std::int64_t lanes = static_cast<std::int64_t>(kLanes);
    // pass 1: the accumulators start from zero or from C
    batch_f acc[MR][NB];
    POSENC_UNROLL
    for (int r = 0; r < MR; ++r) POSENC_UNROLL
    for (int q = 0; q < NB; ++q)
        acc[r][q] = init == Init::from_c ? xsimd::load_unaligned(c + r * ldc + q * lanes) : batch_f(0.0f);
    // pass 2: one rank-1 update of the block per p
    for (std::int64_t p = 0; p < k; ++p) {
        batch_f bq[NB];
        POSENC_UNROLL
        for (int q = 0; q < NB; ++q) bq[q] = xsimd::load_unaligned(b + p * ldb + q * lanes);
        POSENC_UNROLL
        for (int r = 0; r < MR; ++r) {
            const batch_f ar(a[r * a_rs + p * a_cs]);
            POSENC_UNROLL
            for (int q = 0; q < NB; ++q) acc[r][q] += ar * bq[q];
        }
    }
    // pass 3: back into C
    POSENC_UNROLL
    for (int r = 0; r < MR; ++r) POSENC_UNROLL
    for (int q = 0; q < NB; ++q) {
        float* cq = c + r * ldc + q * lanes;
        if (init == Init::add_c_last) acc[r][q] = xsimd::load_unaligned(cq) + acc[r][q];
        acc[r][q].store_unaligned(cq);
    }
}

// The same block for the last n % kLanes columns, one float at a time, in
// the same order of additions.
template <int MR>
void block_tail(float* c, std::int64_t ldc, const float* a, std::int64_t a_rs, std::int64_t a_cs, const float* b,
                std::int64_t ldb, std::int64_t k, std::int64_t cols, Init init) {
    for (int r = 0; r < MR; ++r)
        for (std::int64_t j = 0; j < cols; ++j) {
            float s = init == Init::from_c ? c[r * ldc + j] : 0.0f;
            for (std::int64_t p = 0; p < k; ++p) s += a[r * a_rs + p * a_cs] * b[p * ldb + j];
            c[r * ldc + j] = init == Init::add_c_last ? c[r * ldc + j] + s : s;
        }
}

// MR rows of C, all n columns: 8-column blocks, then one 4-column block,
// then n % 4 scalar columns.
template <int MR>
void row_block(float* c, std::int64_t ldc, const float* a, std::int64_t a_rs, std::int64_t a_cs, const float* b,
               std::int64_t ldb, std::int64_t k, std::int64_t n, Init init) {
    const std::int64_t lanes = static_cast<std::int64_t>(kLanes);
    std::int64_t j = 0;
    for (; j + 2 * lanes <= n; j += 2 * lanes) block_simd<MR, 2>(c + j, ldc, a, a_rs, a_cs, b + j, ldb, k, init);
    if (j + lanes <= n) {
        block_simd<MR, 1>(c + j, ldc, a, a_rs, a_cs, b + j, ldb, k, init);
        j += lanes;
    }
    block_tail<MR>(c + j, ldc, a, a_rs, a_cs, b + j, ldb, k, n - j, init);
}

// c: (m, n); a: element (i, p) at a[i * a_rs + p * a_cs]; b: (k, n).
// Blocks of 4 rows, then the m % 4 rows left over as one smaller block.
void gemm_blocked(float* c, const float* a, std::int64_t a_rs, std::int64_t a_cs, const float* b, std::int64_t m,
                  std::int64_t k, std::int64_t n, Init init) {
    if (k == 0) {
        // An empty sum: A and B have no elements and may be an empty vector's
        // null data(), which must not be offset (UB, as clang's UBSan says);
        // C gets what the blocks would give it, its start value plus 0.
        for (std::int64_t i = 0; i < m * n; ++i)
            c[i] = init == Init::zero ? 0.0f : init == Init::add_c_last ? c[i] + 0.0f : c[i];
        return;
    }
    const std::int64_t body = m - m % 4;
    for (std::int64_t i = 0; i < body; i += 4) row_block<4>(c + i * n, n, a + i * a_rs, a_rs, a_cs, b, n, k, n, init);
    float* ct = c + body * n;
    const float* at = a + body * a_rs;
    switch (m - body) {
        case 3:
            row_block<3>(ct, n, at, a_rs, a_cs, b, n, k, n, init);
            break;
        case 2:
            row_block<2>(ct, n, at, a_rs, a_cs, b, n, k, n, init);
            break;
        case 1:
            row_block<1>(ct, n, at, a_rs, a_cs, b, n, k, n, init);
            break;
        default:
            break;
    }
}

}  // namespace

// c: (m, n); a: (m, k); b: (k, n)
void gemm_nn(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n,
             bool accumulate) {
    gemm_blocked(c, a, k, 1, b, m, k, n, accumulate ? Init::from_c : Init::zero);
}

// c: (m, n); a: (m, k); b: (n, k)
// B is first transposed into a (k, n) panel, so the product runs through the
// nn kernel; the copy costs k n moves against m k n multiply-adds. Dot
// products straight from B's rows (2 x 4 of them at a time, horizontal sums
// at the end) were slower in wasm SIMD: 38 against 50 GFLOP/s at m = 512,
// k = n = 64, 16 against 26 at m = k = n = 16.
void gemm_nt(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n,
             bool accumulate) {
    if (m == 0) return;  // nothing to compute: don't pack (or even read) B
    // One panel per thread, kept between calls: the trainer calls this for
    // every layer of every step with the same few shapes.
    thread_local std::vector<float> panel;
    // pass 1: panel (k, n) = B^T
    panel.resize(static_cast<std::size_t>(k * n));
    for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t p = 0; p < k; ++p) panel[p * n + j] = b[j * k + p];
    // pass 2: C (+)= A panel
    gemm_blocked(c, a, k, 1, panel.data(), m, k, n, accumulate ? Init::add_c_last : Init::zero);
}

// c: (m, n); a: (k, m); b: (k, n)
// The nn kernel reading A down its columns: element (i, p) is a[p * m + i].
void gemm_tn(float* c, const float* a, const float* b, std::int64_t m, std::int64_t k, std::int64_t n,
             bool accumulate) {
    gemm_blocked(c, a, 1, m, b, m, k, n, accumulate ? Init::from_c : Init::zero);
}

}  // namespace simd

#undef POSENC_UNROLL
#endif  // POSENC_SIMD

}  // namespace posenc
