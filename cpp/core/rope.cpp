// Rotary position embedding, evaluated the way HF Llama evaluates it in
// float32 (LlamaRotaryEmbedding + apply_rotary_pos_emb):
//   freqs = inv @ pos                   one product per angle, rounded once
//   cos, sin = emb.cos() * attention_scaling, emb.sin() * attention_scaling
//   q' = q * cos + rotate_half(q) * sin two products and one sum, each rounded
// GPT-J's rotate_every_two gives the same arithmetic on the pairs (2i, 2i+1).
#include "rope.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "caps.h"
#include "check.h"
#include "errors.h"
#include "sleef.h"
#include "vecmath.h"

namespace posenc {

const char* rope_convention_name(RopeConvention convention) {
    static const char* const kNames[] = {"half", "interleaved"};
    return name_in(kNames, convention);
}

RopeConvention rope_convention(const char* name) {
    return check_name("RoPE convention", "convention", name, &rope_convention_name);
}

void rope_inv_freq(float* inv, std::int64_t dim, double base, const RopeScaling& scaling) {
    rope_scaling_inv_freq(inv, dim, base, scaling);  // checks dim, base and scaling
}

namespace {

// One pair (a, b) turned by the angle whose cos and sin are c, s:
//   a' = a*c - b*s,  b' = b*c + a*s
// HF adds (-b)*s; x + (-y) is x - y exactly, so the subtraction is the same.
inline void rotate_pair(float a, float b, float c, float s, float& out_a, float& out_b) {
    const float ac = a * c;
    const float bs = b * s;
    const float bc = b * c;
    const float as = a * s;
    out_a = ac - bs;
    out_b = bc + as;
}

// Coordinates from rotary_dim on pass through (GPT-J rotary_dim).
inline void copy_tail(float* out, const float* x, std::int64_t dim, std::int64_t rotary_dim) {
    if (out != x) std::copy(x + rotary_dim, x + dim, out + rotary_dim);
}

}  // namespace

namespace scalar {

// x, out: (rows, dim); positions: (rows); inv: (rotary_dim/2)
void rope_apply(float* out, const float* x, std::int64_t rows, std::int64_t dim, const double* positions,
                const float* inv, std::int64_t rotary_dim, RopeConvention convention, float attn_factor, SinCos path) {
    const std::int64_t half = rotary_dim / 2;
    std::vector<float> buf(static_cast<std::size_t>(3 * half));
    float* angle = buf.data();
    float* sn = angle + half;
    float* cs = sn + half;
    for (std::int64_t r = 0; r < rows; ++r) {
        const float* xr = x + r * dim;
        float* outr = out + r * dim;
        // pass 1: angles theta_i = f32(f32(m) * inv_i), then cos and sin
        // scaled by the attention factor (YaRN; 1 otherwise).
        const float m = static_cast<float>(positions[r]);
        for (std::int64_t i = 0; i < half; ++i) angle[i] = m * inv[i];
        if (path == SinCos::Exact)
            torch_sincos(angle, sn, cs, static_cast<std::size_t>(half));
        else
            sincos(angle, sn, cs, static_cast<std::size_t>(half));
        if (attn_factor != 1.0f) {  // (times 1 changes no bit)
            for (std::int64_t i = 0; i < half; ++i) {
                cs[i] = cs[i] * attn_factor;
                sn[i] = sn[i] * attn_factor;
            }
        }
        // pass 2: rotate each pair.
        if (convention == RopeConvention::Half) {
            for (std::int64_t i = 0; i < half; ++i)
                rotate_pair(xr[i], xr[i + half], cs[i], sn[i], outr[i], outr[i + half]);
        } else {
            for (std::int64_t i = 0; i < half; ++i)
                rotate_pair(xr[2 * i], xr[2 * i + 1], cs[i], sn[i], outr[2 * i], outr[2 * i + 1]);
        }
        copy_tail(outr, xr, dim, rotary_dim);
    }
}

}  // namespace scalar

#if POSENC_SIMD
namespace simd {
namespace {

// Swizzle mask 1,0,3,2,...: swaps the two lanes of every pair.
struct SwapPairs {
    static constexpr std::uint32_t get(std::size_t index, std::size_t) {
        return static_cast<std::uint32_t>(index ^ 1u);
    }
};

}  // namespace

// x, out: (rows, dim); positions: (rows); inv: (rotary_dim/2)
void rope_apply(float* out, const float* x, std::int64_t rows, std::int64_t dim, const double* positions,
                const float* inv, std::int64_t rotary_dim, RopeConvention convention, float attn_factor, SinCos path) {
    const std::size_t half = static_cast<std::size_t>(rotary_dim / 2);
    const std::size_t body = half - half % kLanes;
    std::vector<float> buf(3 * half);
    float* angle = buf.data();
    float* sn = angle + half;
    float* cs = sn + half;
    const batch_f attn(attn_factor);
    using mask_u = xsimd::batch<std::uint32_t>;
    const auto swap_mask = xsimd::make_batch_constant<mask_u, SwapPairs>();
    for (std::int64_t r = 0; r < rows; ++r) {
        const float* xr = x + r * dim;
        float* outr = out + r * dim;
        // pass 1: all angles of the row, then one vectorised sincos over them.
        const float m = static_cast<float>(positions[r]);
        const batch_f mb(m);
        for (std::size_t i = 0; i < body; i += kLanes)
            xsimd::store_unaligned(angle + i, mb * xsimd::load_unaligned(inv + i));
        for (std::size_t i = body; i < half; ++i) angle[i] = m * inv[i];
        if (path == SinCos::Exact)
            torch_sincos(angle, sn, cs, half);
        else
            sincos(angle, sn, cs, half);
        if (attn_factor != 1.0f) {  // (times 1 changes no bit)
            for (std::size_t i = 0; i < body; i += kLanes) {
                xsimd::store_unaligned(cs + i, xsimd::load_unaligned(cs + i) * attn);
                xsimd::store_unaligned(sn + i, xsimd::load_unaligned(sn + i) * attn);
            }
            for (std::size_t i = body; i < half; ++i) {
                cs[i] = cs[i] * attn_factor;
                sn[i] = sn[i] * attn_factor;
            }
        }
        // pass 2: rotate. Half: the pairs (i, i + half) are two contiguous runs.
        if (convention == RopeConvention::Half) {
            for (std::size_t i = 0; i < body; i += kLanes) {
                const batch_f a = xsimd::load_unaligned(xr + i);
                const batch_f b = xsimd::load_unaligned(xr + half + i);
                const batch_f c = xsimd::load_unaligned(cs + i);
                const batch_f s = xsimd::load_unaligned(sn + i);
                xsimd::store_unaligned(outr + i, a * c - b * s);
                xsimd::store_unaligned(outr + half + i, b * c + a * s);
            }
            for (std::size_t i = body; i < half; ++i)
                rotate_pair(xr[i], xr[i + half], cs[i], sn[i], outr[i], outr[i + half]);
        } else {
            // Interleaved (a0 b0 a1 b1 ...): out = x * (c0 c0 c1 c1 ...)
            // + swap(x) * (-s0 s0 -s1 s1 ...), swap(x) = (b0 a0 b1 a1 ...).
            // b*(-s) is -(b*s) exactly, so this is a*c - b*s, b*c + a*s.
            for (std::size_t i = 0; i < body; i += kLanes) {
                const batch_f c = xsimd::load_unaligned(cs + i);
                const batch_f s = xsimd::load_unaligned(sn + i);
                const batch_f c_lo = xsimd::zip_lo(c, c), c_hi = xsimd::zip_hi(c, c);
                const batch_f s_lo = xsimd::zip_lo(-s, s), s_hi = xsimd::zip_hi(-s, s);
                const batch_f x_lo = xsimd::load_unaligned(xr + 2 * i);
                const batch_f x_hi = xsimd::load_unaligned(xr + 2 * i + kLanes);
                const batch_f w_lo = xsimd::swizzle(x_lo, swap_mask);
                const batch_f w_hi = xsimd::swizzle(x_hi, swap_mask);
                xsimd::store_unaligned(outr + 2 * i, x_lo * c_lo + w_lo * s_lo);
                xsimd::store_unaligned(outr + 2 * i + kLanes, x_hi * c_hi + w_hi * s_hi);
            }
            for (std::size_t i = body; i < half; ++i)
                rotate_pair(xr[2 * i], xr[2 * i + 1], cs[i], sn[i], outr[2 * i], outr[2 * i + 1]);
        }
        copy_tail(outr, xr, dim, rotary_dim);
    }
}

}  // namespace simd
#endif

void rope_apply(float* out, const float* x, std::int64_t rows, std::int64_t dim, const double* positions, double base,
                RopeConvention convention, std::int64_t rotary_dim, const RopeScaling& scaling, SinCos path) {
    check_range("rows", rows, 1, kMaxPosition);
    check_range("dim", dim, 2, kMaxDim);
    if (dim % 2 != 0) throw RangeError("dim must be even, got " + std::to_string(dim), {"dim"}, {double(dim)});
    check_range("rotary_dim", rotary_dim, 2, dim);
    if (rotary_dim % 2 != 0)
        throw RangeError("rotary_dim must be even, got " + std::to_string(rotary_dim), {"rotary_dim"},
                         {double(rotary_dim)});
    check_positive("base", base);
    check_elements("x", rows * dim);
    rope_scaling_check(scaling);
    if (scaling.type == RopeScaling::Type::Dynamic && rotary_dim < 4)
        throw RangeError("rotary_dim must be at least 4 for dynamic scaling (the exponent is dim/(dim-2)), got " +
                             std::to_string(rotary_dim),
                         {"rotary_dim"}, {double(rotary_dim)});
    for (std::int64_t r = 0; r < rows; ++r) {
        const double p = positions[r];
        // f32(pos) is exact only for integers up to 2^24.
        if (!(p >= 0 && p <= static_cast<double>(kMaxPosition)) || p != std::floor(p))
            throw RangeError("positions[" + std::to_string(r) + "] must be an integer between 0 and " +
                                 std::to_string(kMaxPosition) + ", got " + format_number(p),
                             {"positions"}, {p, 0.0, double(kMaxPosition)});
    }

    std::vector<float> inv(static_cast<std::size_t>(rotary_dim / 2));
    rope_scaling_inv_freq(inv.data(), rotary_dim, base, scaling);
    const float attn = rope_scaling_attention_factor(scaling);
    kernels::rope_apply(out, x, rows, dim, positions, inv.data(), rotary_dim, convention, attn, path);
}

}  // namespace posenc
