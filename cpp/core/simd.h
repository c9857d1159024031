// Which code path this build compiles. POSENC_SIMD is 1 when xsimd can be
// used: wasm with -msimd128 -msse4.2 (xsimd 8.1 has no wasm arch, so it
// picks sse4.2 and Emscripten lowers the intrinsics to wasm SIMD), or a
// native x86-64 build with SSE4.2. The scalar wasm build defines neither and
// compiles only the scalar twins; xsimd is not even included there, because
// xsimd 8.1 does not compile without SIMD.
//
// Every kernel with twins has them under one name in two namespaces:
//   posenc::scalar::f   one value at a time (every build)
//   posenc::simd::f     xsimd, four lanes at a time (POSENC_SIMD builds only)
// and posenc::kernels names the build's choice, picked once here: callers
// write kernels::f and never test POSENC_SIMD themselves. The tests hold
// simd::f against scalar::f (test_util.h's check_twins).
#pragma once

#if defined(POSENC_FORCE_SCALAR)
#define POSENC_SIMD 0
#elif defined(__wasm_simd128__) || defined(__SSE4_2__)
#define POSENC_SIMD 1
#else
#define POSENC_SIMD 0
#endif

#if POSENC_SIMD
#include <xsimd/xsimd.hpp>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>  // clang's header, not Emscripten's: the core stays plain C++
#endif
namespace posenc {
using batch_f = xsimd::batch<float>;
using batch_i = xsimd::batch<std::int32_t>;
constexpr std::size_t kLanes = batch_f::size;

// Lane-wise `a < b ? b : a`: wasm's pmax, one instruction (xsimd::max, SSE's
// maxps, becomes compare + bitselect under Emscripten 3.1.6), and on SSE
// maxps(b, a), the same function: where either lane is NaN both give a.
// So pmax(x, lo) keeps a NaN x (a clamp that lets NaN through), and
// pmax(m, x) skips a NaN x (a running max).
inline batch_f pmax(const batch_f& a, const batch_f& b) {
#if defined(__wasm_simd128__)
    const v128_t va = static_cast<v128_t>(static_cast<__m128>(a));
    const v128_t vb = static_cast<v128_t>(static_cast<__m128>(b));
    return batch_f(static_cast<__m128>(wasm_f32x4_pmax(va, vb)));
#else
    return batch_f(_mm_max_ps(static_cast<__m128>(b), static_cast<__m128>(a)));
#endif
}
}  // namespace posenc
#endif

namespace posenc {
namespace scalar {}
#if POSENC_SIMD
namespace simd {}
namespace kernels = simd;
#else
namespace kernels = scalar;
#endif
}  // namespace posenc
