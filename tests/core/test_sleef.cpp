// sleef: sleef_powf against SLEEF's powf_u10 bit for bit, and
// torch_pow_scalar_tensor against PyTorch 1.13's CPU `base ** tensor`;
// sleef_sinf/cosf and torch_sincos against torch.sin/cos (5 x 2^20
// arguments, hashed by tests/fixtures/make_sincos.py).
// The tables were taken from libsleef 3.5.1 (Sleef_finz_powf1_u10purecfma)
// and from torch itself; natively a larger sweep runs against libsleef
// itself (Debian's libsleef3, which scripts/setup/setup.sh installs). In wasm the
// fused multiply-adds are emulated, so the tables are what shows the
// emulation rounds like the hardware.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#if !defined(__EMSCRIPTEN__) && defined(__linux__)
#include <dlfcn.h>
#define POSENC_HAVE_DLOPEN 1
#else
#define POSENC_HAVE_DLOPEN 0
#endif

#include "fixture.h"
#include "rope.h"
#include "sinusoidal.h"
#include "sleef.h"
#include "test_util.h"

using namespace posenc;

namespace {

std::uint32_t to_bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// f32(2i) / f32(dim): the RoPE exponents, as HF Llama and torch form them.
float rope_exponent(int i, int dim) {
    return static_cast<float>(2 * i) / static_cast<float>(dim);
}

struct PowCase {
    float base, e;
    std::uint32_t bits;  // powf_u10(base, e) from libsleef
};

// The RoPE exponents of dims 38 and 36 for bases 1e4 and 5e5 (where
// (float)pow((double)base, e) first parts from torch), then, for bases 1e4,
// 5e5, 500 and the NTK-aware 1e4 * (2*5000/2048 - 1)^(128/126), the first
// 25 exponents at which SLEEF and the correctly rounded pow differ, then
// random (x in [e^-7, e^16], y in [-4, 4]) pairs.
const PowCase kTable[] = {
    {0x1.388p+13, 0x0p+0, 0x3f800000u},             // base 10000 dim 38 i 0
    {0x1.388p+13, 0x1.af286cp-5, 0x3fcfd7ebu},      // base 10000 dim 38 i 1
    {0x1.388p+13, 0x1.af286cp-4, 0x4028bee4u},      // base 10000 dim 38 i 2 (!= f32 of double pow)
    {0x1.388p+13, 0x1.435e5p-3, 0x408900acu},       // base 10000 dim 38 i 3
    {0x1.388p+13, 0x1.af286cp-3, 0x40de7632u},      // base 10000 dim 38 i 4
    {0x1.388p+13, 0x1.0d7944p-2, 0x41349d34u},      // base 10000 dim 38 i 5
    {0x1.388p+13, 0x1.435e5p-2, 0x4192a371u},       // base 10000 dim 38 i 6
    {0x1.388p+13, 0x1.79435ep-2, 0x41ee1badu},      // base 10000 dim 38 i 7
    {0x1.388p+13, 0x1.af286cp-2, 0x42415135u},      // base 10000 dim 38 i 8
    {0x1.388p+13, 0x1.e50d7ap-2, 0x429cf3b7u},      // base 10000 dim 38 i 9
    {0x1.388p+13, 0x1.0d7944p-1, 0x42fedae4u},      // base 10000 dim 38 i 10
    {0x1.388p+13, 0x1.286bcap-1, 0x434ee9efu},      // base 10000 dim 38 i 11
    {0x1.388p+13, 0x1.435e5p-1, 0x43a7fdaau},       // base 10000 dim 38 i 12
    {0x1.388p+13, 0x1.5e50d8p-1, 0x440863d0u},      // base 10000 dim 38 i 13
    {0x1.388p+13, 0x1.79435ep-1, 0x445d7778u},      // base 10000 dim 38 i 14
    {0x1.388p+13, 0x1.9435e6p-1, 0x44b3ce69u},      // base 10000 dim 38 i 15
    {0x1.388p+13, 0x1.af286cp-1, 0x4511fb8cu},      // base 10000 dim 38 i 16
    {0x1.388p+13, 0x1.ca1af2p-1, 0x456d0b09u},      // base 10000 dim 38 i 17
    {0x1.388p+13, 0x1.e50d7ap-1, 0x45c073deu},      // base 10000 dim 38 i 18
    {0x1.388p+13, 0x0p+0, 0x3f800000u},             // base 10000 dim 36 i 0
    {0x1.388p+13, 0x1.c71c72p-5, 0x3fd58452u},      // base 10000 dim 36 i 1
    {0x1.388p+13, 0x1.c71c72p-4, 0x40321574u},      // base 10000 dim 36 i 2
    {0x1.388p+13, 0x1.555556p-3, 0x409487e6u},      // base 10000 dim 36 i 3
    {0x1.388p+13, 0x1.c71c72p-3, 0x40f7c3afu},      // base 10000 dim 36 i 4
    {0x1.388p+13, 0x1.1c71c8p-2, 0x414ea5e1u},      // base 10000 dim 36 i 5
    {0x1.388p+13, 0x1.555556p-2, 0x41ac5ad4u},      // base 10000 dim 36 i 6
    {0x1.388p+13, 0x1.8e38e4p-2, 0x420fc0a7u},      // base 10000 dim 36 i 7
    {0x1.388p+13, 0x1.c71c72p-2, 0x426fcb30u},      // base 10000 dim 36 i 8
    {0x1.388p+13, 0x1p-1, 0x42c80000u},             // base 10000 dim 36 i 9
    {0x1.388p+13, 0x1.1c71c8p-1, 0x4326cf62u},      // base 10000 dim 36 i 10
    {0x1.388p+13, 0x1.38e38ep-1, 0x438b20c2u},      // base 10000 dim 36 i 11
    {0x1.388p+13, 0x1.555556p-1, 0x43e81459u},      // base 10000 dim 36 i 12
    {0x1.388p+13, 0x1.71c71cp-1, 0x444190dfu},      // base 10000 dim 36 i 13
    {0x1.388p+13, 0x1.8e38e4p-1, 0x44a17198u},      // base 10000 dim 36 i 14
    {0x1.388p+13, 0x1.aaaaaap-1, 0x4506a6f3u},      // base 10000 dim 36 i 15
    {0x1.388p+13, 0x1.c71c72p-1, 0x45609d06u},      // base 10000 dim 36 i 16
    {0x1.388p+13, 0x1.e38e38p-1, 0x45bb56bau},      // base 10000 dim 36 i 17
    {0x1.e848p+18, 0x0p+0, 0x3f800000u},            // base 500000 dim 38 i 0
    {0x1.e848p+18, 0x1.af286cp-5, 0x3fff5c98u},     // base 500000 dim 38 i 1
    {0x1.e848p+18, 0x1.af286cp-4, 0x407eb999u},     // base 500000 dim 38 i 2
    {0x1.e848p+18, 0x1.435e5p-3, 0x40fe1700u},      // base 500000 dim 38 i 3
    {0x1.e848p+18, 0x1.af286cp-3, 0x417d74d2u},     // base 500000 dim 38 i 4
    {0x1.e848p+18, 0x1.0d7944p-2, 0x41fcd30cu},     // base 500000 dim 38 i 5
    {0x1.e848p+18, 0x1.435e5p-2, 0x427c31a6u},      // base 500000 dim 38 i 6
    {0x1.e848p+18, 0x1.79435ep-2, 0x42fb90aeu},     // base 500000 dim 38 i 7
    {0x1.e848p+18, 0x1.af286cp-2, 0x437af01du},     // base 500000 dim 38 i 8
    {0x1.e848p+18, 0x1.e50d7ap-2, 0x43fa4ff2u},     // base 500000 dim 38 i 9
    {0x1.e848p+18, 0x1.0d7944p-1, 0x4479b02eu},     // base 500000 dim 38 i 10
    {0x1.e848p+18, 0x1.286bcap-1, 0x44f910c9u},     // base 500000 dim 38 i 11
    {0x1.e848p+18, 0x1.435e5p-1, 0x457871c9u},      // base 500000 dim 38 i 12
    {0x1.e848p+18, 0x1.5e50d8p-1, 0x45f7d33cu},     // base 500000 dim 38 i 13
    {0x1.e848p+18, 0x1.79435ep-1, 0x46773508u},     // base 500000 dim 38 i 14
    {0x1.e848p+18, 0x1.9435e6p-1, 0x46f69745u},     // base 500000 dim 38 i 15
    {0x1.e848p+18, 0x1.af286cp-1, 0x4775f9dau},     // base 500000 dim 38 i 16
    {0x1.e848p+18, 0x1.ca1af2p-1, 0x47f55cd4u},     // base 500000 dim 38 i 17
    {0x1.e848p+18, 0x1.e50d7ap-1, 0x4874c03eu},     // base 500000 dim 38 i 18
    {0x1.e848p+18, 0x0p+0, 0x3f800000u},            // base 500000 dim 36 i 0
    {0x1.e848p+18, 0x1.c71c72p-5, 0x4004acd3u},     // base 500000 dim 36 i 1
    {0x1.e848p+18, 0x1.c71c72p-4, 0x4089855du},     // base 500000 dim 36 i 2
    {0x1.e848p+18, 0x1.555556p-3, 0x410e8b37u},     // base 500000 dim 36 i 3
    {0x1.e848p+18, 0x1.c71c72p-3, 0x4193c006u},     // base 500000 dim 36 i 4
    {0x1.e848p+18, 0x1.1c71c8p-2, 0x42192586u},     // base 500000 dim 36 i 5
    {0x1.e848p+18, 0x1.555556p-2, 0x429ebd79u},     // base 500000 dim 36 i 6
    {0x1.e848p+18, 0x1.8e38e4p-2, 0x432489b9u},     // base 500000 dim 36 i 7
    {0x1.e848p+18, 0x1.c71c72p-2, 0x43aa8c2fu},     // base 500000 dim 36 i 8
    {0x1.e848p+18, 0x1p-1, 0x4430c6d6u},            // base 500000 dim 36 i 9
    {0x1.e848p+18, 0x1.1c71c8p-1, 0x44b73bbfu},     // base 500000 dim 36 i 10
    {0x1.e848p+18, 0x1.38e38ep-1, 0x453decfeu},     // base 500000 dim 36 i 11 (!= f32 of double pow)
    {0x1.e848p+18, 0x1.555556p-1, 0x45c4dcdbu},     // base 500000 dim 36 i 12
    {0x1.e848p+18, 0x1.71c71cp-1, 0x464c0d8au},     // base 500000 dim 36 i 13
    {0x1.e848p+18, 0x1.8e38e4p-1, 0x46d3817eu},     // base 500000 dim 36 i 14
    {0x1.e848p+18, 0x1.aaaaaap-1, 0x475b3b16u},     // base 500000 dim 36 i 15
    {0x1.e848p+18, 0x1.c71c72p-1, 0x47e33cf6u},     // base 500000 dim 36 i 16
    {0x1.e848p+18, 0x1.e38e38p-1, 0x486b89a7u},     // base 500000 dim 36 i 17
    {0x1.388p+13, 0x1.aaaaaap-2, 0x4239a9ddu},      // base 10000 dim 24 i 5
    {0x1.388p+13, 0x1.aaaaaap-2, 0x4239a9ddu},      // base 10000 dim 48 i 10
    {0x1.388p+13, 0x1.47ae14p-5, 0x3fb9042bu},      // base 10000 dim 50 i 1
    {0x1.388p+13, 0x1.89d89ep-3, 0x40bc18b5u},      // base 10000 dim 52 i 5
    {0x1.388p+13, 0x1.924924p-2, 0x42151a8eu},      // base 10000 dim 56 i 11
    {0x1.388p+13, 0x1.ee5846p-3, 0x4113c98eu},      // base 10000 dim 58 i 7
    {0x1.388p+13, 0x1.f07c2p-3, 0x4115376fu},       // base 10000 dim 66 i 8
    {0x1.388p+13, 0x1.969696p-1, 0x44bba9efu},      // base 10000 dim 68 i 27
    {0x1.388p+13, 0x1.aaaaaap-2, 0x4239a9ddu},      // base 10000 dim 72 i 15
    {0x1.388p+13, 0x1.14c1bap-2, 0x4140d77bu},      // base 10000 dim 74 i 10
    {0x1.388p+13, 0x1.bacf92p-1, 0x4534071du},      // base 10000 dim 74 i 32
    {0x1.388p+13, 0x1.af286cp-4, 0x4028bee4u},      // base 10000 dim 76 i 4
    {0x1.388p+13, 0x1.76a258p-1, 0x44533c98u},      // base 10000 dim 82 i 30
    {0x1.388p+13, 0x1.5c9882p-4, 0x400c276cu},      // base 10000 dim 94 i 4
    {0x1.388p+13, 0x1.aaaaaap-2, 0x4239a9ddu},      // base 10000 dim 96 i 20
    {0x1.388p+13, 0x1.47ae14p-5, 0x3fb9042bu},      // base 10000 dim 100 i 2
    {0x1.388p+13, 0x1.414142p-2, 0x418fe090u},      // base 10000 dim 102 i 16
    {0x1.388p+13, 0x1.89d89ep-3, 0x40bc18b5u},      // base 10000 dim 104 i 10
    {0x1.388p+13, 0x1.bb13b2p-1, 0x4534e444u},      // base 10000 dim 104 i 45
    {0x1.388p+13, 0x1.ed097cp-3, 0x4112ebb2u},      // base 10000 dim 108 i 13
    {0x1.388p+13, 0x1.924924p-2, 0x42151a8eu},      // base 10000 dim 112 i 22
    {0x1.388p+13, 0x1.af286cp-4, 0x4028bee4u},      // base 10000 dim 114 i 6
    {0x1.388p+13, 0x1.8b3a62p-3, 0x40bd44e5u},      // base 10000 dim 114 i 11
    {0x1.388p+13, 0x1.ee5846p-3, 0x4113c98eu},      // base 10000 dim 116 i 14
    {0x1.388p+13, 0x1.4f72c2p-2, 0x41a37802u},      // base 10000 dim 116 i 19
    {0x1.e848p+18, 0x1.90b216p-2, 0x4329d637u},     // base 500000 dim 46 i 9
    {0x1.e848p+18, 0x1.d89d8ap-4, 0x40917408u},     // base 500000 dim 52 i 3
    {0x1.e848p+18, 0x1.924924p-2, 0x432d553au},     // base 500000 dim 56 i 11
    {0x1.e848p+18, 0x1.38e38ep-1, 0x453decfeu},     // base 500000 dim 72 i 22
    {0x1.e848p+18, 0x1.35e50ep-1, 0x452fe574u},     // base 500000 dim 76 i 23
    {0x1.e848p+18, 0x1.f2df2ep-1, 0x48ae62ecu},     // base 500000 dim 78 i 38
    {0x1.e848p+18, 0x1.90b216p-2, 0x4329d637u},     // base 500000 dim 92 i 18
    {0x1.e848p+18, 0x1.955556p-2, 0x43343c80u},     // base 500000 dim 96 i 19
    {0x1.e848p+18, 0x1.51eb86p-1, 0x45b45f5du},     // base 500000 dim 100 i 33
    {0x1.e848p+18, 0x1.d89d8ap-4, 0x40917408u},     // base 500000 dim 104 i 6
    {0x1.e848p+18, 0x1.6f1826p-1, 0x463e7da1u},     // base 500000 dim 106 i 38
    {0x1.e848p+18, 0x1.38e38ep-1, 0x453decfeu},     // base 500000 dim 108 i 33
    {0x1.e848p+18, 0x1.924924p-2, 0x432d553au},     // base 500000 dim 112 i 22
    {0x1.e848p+18, 0x1.c92492p-2, 0x43af0bddu},     // base 500000 dim 112 i 25
    {0x1.e848p+18, 0x1.1e5f76p-1, 0x44c0846au},     // base 500000 dim 118 i 33
    {0x1.e848p+18, 0x1.5270dp-1, 0x45b6cbacu},      // base 500000 dim 118 i 39
    {0x1.e848p+18, 0x1.888888p-2, 0x4318f837u},     // base 500000 dim 120 i 23
    {0x1.e848p+18, 0x1.714fbcp-3, 0x412a87e9u},     // base 500000 dim 122 i 11
    {0x1.e848p+18, 0x1.bdef7cp-2, 0x4397a0c7u},     // base 500000 dim 124 i 27
    {0x1.e848p+18, 0x1.e9131ap-6, 0x3fbd60a6u},     // base 500000 dim 134 i 2
    {0x1.e848p+18, 0x1.9ca81ep-2, 0x4345f85eu},     // base 500000 dim 134 i 27
    {0x1.e848p+18, 0x1.503d22p-1, 0x45acc3fbu},     // base 500000 dim 134 i 44
    {0x1.e848p+18, 0x1.90b216p-2, 0x4329d637u},     // base 500000 dim 138 i 27
    {0x1.e848p+18, 0x1.19f894p-1, 0x44abfa65u},     // base 500000 dim 138 i 38
    {0x1.e848p+18, 0x1.3615a2p-1, 0x4530c0fcu},     // base 500000 dim 142 i 43
    {0x1.f4p+8, 0x1.24924ap-2, 0x40bcec3au},        // base 500 dim 14 i 2
    {0x1.f4p+8, 0x1.6db6dcp-1, 0x42a961a5u},        // base 500 dim 14 i 5
    {0x1.f4p+8, 0x1.627628p-1, 0x4293c1c3u},        // base 500 dim 26 i 9
    {0x1.f4p+8, 0x1.24924ap-2, 0x40bcec3au},        // base 500 dim 28 i 4
    {0x1.f4p+8, 0x1.6db6dcp-2, 0x41133e7cu},        // base 500 dim 28 i 5
    {0x1.f4p+8, 0x1.6db6dcp-1, 0x42a961a5u},        // base 500 dim 28 i 10
    {0x1.f4p+8, 0x1.24924ap-2, 0x40bcec3au},        // base 500 dim 42 i 6
    {0x1.f4p+8, 0x1.6db6dcp-1, 0x42a961a5u},        // base 500 dim 42 i 15
    {0x1.f4p+8, 0x1.642c86p-3, 0x403c9c4fu},        // base 500 dim 46 i 4
    {0x1.f4p+8, 0x1.d70a3ep-1, 0x43981007u},        // base 500 dim 50 i 23
    {0x1.f4p+8, 0x1.627628p-1, 0x4293c1c3u},        // base 500 dim 52 i 18
    {0x1.f4p+8, 0x1.24924ap-2, 0x40bcec3au},        // base 500 dim 56 i 8
    {0x1.f4p+8, 0x1.6db6dcp-2, 0x41133e7cu},        // base 500 dim 56 i 10
    {0x1.f4p+8, 0x1.6db6dcp-1, 0x42a961a5u},        // base 500 dim 56 i 20
    {0x1.f4p+8, 0x1.08421p-3, 0x400eb40eu},         // base 500 dim 62 i 4
    {0x1.f4p+8, 0x1.ad6b5ap-1, 0x433781beu},        // base 500 dim 62 i 26
    {0x1.f4p+8, 0x1.e0f83ep-1, 0x43ab8a4fu},        // base 500 dim 66 i 31
    {0x1.f4p+8, 0x1.24924ap-2, 0x40bcec3au},        // base 500 dim 70 i 10
    {0x1.f4p+8, 0x1.6db6dcp-1, 0x42a961a5u},        // base 500 dim 70 i 25
    {0x1.f4p+8, 0x1.c71c72p-6, 0x3f981e46u},        // base 500 dim 72 i 1
    {0x1.f4p+8, 0x1.627628p-1, 0x4293c1c3u},        // base 500 dim 78 i 27
    {0x1.f4p+8, 0x1.a66666p-1, 0x43288500u},        // base 500 dim 80 i 33
    {0x1.f4p+8, 0x1.12bb52p-1, 0x41e08d6fu},        // base 500 dim 82 i 22
    {0x1.f4p+8, 0x1.44aed4p-1, 0x424ddfccu},        // base 500 dim 82 i 26
    {0x1.f4p+8, 0x1.24924ap-2, 0x40bcec3au},        // base 500 dim 84 i 12
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 8 i 3
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 16 i 6
    {0x1.35f288p+15, 0x1.745d18p-4, 0x402794c9u},   // base 39673.2656 dim 22 i 1
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 24 i 9
    {0x1.35f288p+15, 0x1.2p-1, 0x43c107b6u},        // base 39673.2656 dim 32 i 9
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 32 i 12
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 40 i 15
    {0x1.35f288p+15, 0x1.745d18p-4, 0x402794c9u},   // base 39673.2656 dim 44 i 2
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 48 i 18
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 56 i 21
    {0x1.35f288p+15, 0x1.111112p-5, 0x3fb62d47u},   // base 39673.2656 dim 60 i 1
    {0x1.35f288p+15, 0x1.2p-1, 0x43c107b6u},        // base 39673.2656 dim 64 i 18
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 64 i 24
    {0x1.35f288p+15, 0x1.745d18p-4, 0x402794c9u},   // base 39673.2656 dim 66 i 3
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 72 i 27
    {0x1.35f288p+15, 0x1.e38e38p-1, 0x46ac1d24u},   // base 39673.2656 dim 72 i 34
    {0x1.35f288p+15, 0x1.e50d7ap-3, 0x41447191u},   // base 39673.2656 dim 76 i 9
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 80 i 30
    {0x1.35f288p+15, 0x1.186186p-1, 0x43a4e3eau},   // base 39673.2656 dim 84 i 23
    {0x1.35f288p+15, 0x1.745d18p-4, 0x402794c9u},   // base 39673.2656 dim 88 i 4
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 88 i 33
    {0x1.35f288p+15, 0x1.5c9882p-1, 0x44a8f794u},   // base 39673.2656 dim 94 i 32
    {0x1.35f288p+15, 0x1.2p-1, 0x43c107b6u},        // base 39673.2656 dim 96 i 27
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 96 i 36
    {0x1.35f288p+15, 0x1.8p-1, 0x452fb14fu},        // base 39673.2656 dim 104 i 39
    {0x1.59a812p-8, -0x1.17346cp+1, 0x47b5b1ebu},   // random
    {0x1.b7b426p+15, -0x1.72bebp+0, 0x340dae16u},   // random
    {0x1.5d530ap+4, 0x1.e9b344p+1, 0x4801ab98u},    // random
    {0x1.e015dep+13, -0x1.6bd93p-2, 0x3d054c16u},   // random
    {0x1.46ea1cp+22, -0x1.89309cp+0, 0x2e4b6f74u},  // random
    {0x1.b465acp+7, -0x1.e397bp+0, 0x382022fbu},    // random
    {0x1.7177d8p+6, -0x1.a72cbap+1, 0x34aa8457u},   // random
    {0x1.396a76p-8, -0x1.4a406p-1, 0x41fb0ec3u},    // random
    {0x1.c058fep-2, -0x1.efb532p+1, 0x41c3f6bcu},   // random
    {0x1.6718cp+6, 0x1.c6e6p-3, 0x402dc8cfu},       // random
    {0x1.5b216cp+12, 0x1.79a718p+1, 0x51d01a92u},   // random
    {0x1.7c3f34p+16, -0x1.5a70f4p+0, 0x343ead01u},  // random
    {0x1.749be2p+2, -0x1.b6822p-1, 0x3e627cc9u},    // random
    {0x1.104bd8p-8, 0x1.650758p+0, 0x39fa36feu},    // random
    {0x1.60b83ap-1, 0x1.60e7ep+0, 0x3f192832u},     // random
    {0x1.0f352p+20, 0x1.8d607p+0, 0x4f106f98u},     // random
    {0x1.f98a84p-4, -0x1.3b728cp+0, 0x4152b9a1u},   // random
    {0x1.dee01p+4, 0x1.b7d63cp+1, 0x47e6a604u},     // random
    {0x1.bdd896p+20, -0x1.e63a7cp+0, 0x2bb42a3du},  // random
    {0x1.a7d464p-10, 0x1.00c7fp+1, 0x3628acd4u},    // random
    {0x1.c6a09p+9, -0x1.f5fa1cp+0, 0x35d3f8dau},    // random
    {0x1.587d62p+21, 0x1.67b9c4p+1, 0x5d95361bu},   // random
    {0x1.7500aep-3, -0x1.4dc51cp+1, 0x42a9af2bu},   // random
    {0x1.12965p+8, 0x1.29bde8p+1, 0x48e5c682u},     // random
    {0x1.0c525p+20, 0x1.c021e8p+1, 0x62991432u},    // random
    {0x1.3f9066p-6, -0x1.a3381p-2, 0x40a061dfu},    // random
};

struct TorchCase {
    float base;
    int dim;                          // exponents rope_exponent(i, dim), i < dim/2
    std::vector<std::uint32_t> bits;  // torch.pow(base, e) from PyTorch 1.13
};

// n = dim/2 = 19, 18, 37, 13, 18, 39: each has a scalar tail, and in the
// last four a tail element where libm's powf and SLEEF disagree.
const TorchCase kTorch[] = {
    {0x1.3880000000000p+13f,
     38,
     {0x3f800000u, 0x3fcfd7ebu, 0x4028bee4u, 0x408900acu, 0x40de7632u, 0x41349d34u, 0x4192a371u, 0x41ee1badu,
      0x42415135u, 0x429cf3b7u, 0x42fedae4u, 0x434ee9efu, 0x43a7fdaau, 0x440863d0u, 0x445d7778u, 0x44b3ce69u,
      0x4511fb8cu, 0x456d0b09u, 0x45c073deu}},
    {0x1.e848000000000p+18f,
     36,
     {0x3f800000u, 0x4004acd3u, 0x4089855du, 0x410e8b37u, 0x4193c006u, 0x42192586u, 0x429ebd79u, 0x432489b9u,
      0x43aa8c2fu, 0x4430c6d6u, 0x44b73bbfu, 0x453decfeu, 0x45c4dcdbu, 0x464c0d8au, 0x46d3817eu, 0x475b3b16u,
      0x47e33cf6u, 0x486b89a7u}},
    {0x1.3880000000000p+13f,
     74,
     {0x3f800000u, 0x3fa42ddfu, 0x3fd2959bu, 0x40070d92u, 0x402d39cau, 0x405e301du, 0x408e7ea2u, 0x40b6c552u,
      0x40ea6e50u, 0x411658acu, 0x4140d77bu, 0x41775933u, 0x419ea175u, 0x41cb77b9u, 0x42027d28u, 0x42275f1du,
      0x4256add9u, 0x4289add5u, 0x42b09811u, 0x42e2821cu, 0x431143efu, 0x433a531du, 0x436efd40u, 0x4399450eu,
      0x43c49765u, 0x43fc2873u, 0x4421b717u, 0x444f6c87u, 0x448506b4u, 0x44aaa041u, 0x44dada76u, 0x450c5b29u,
      0x4534071eu, 0x4566e99fu, 0x45941708u, 0x45bdf293u, 0x45f3a2e4u}},
    {0x1.f400000000000p+8f,
     26,
     {0x3f800000u, 0x3fce7432u, 0x40267f35u, 0x408645eeu, 0x40d8926fu, 0x412ea821u, 0x418cda90u, 0x41e32f9fu,
      0x4237376fu, 0x4293c1c4u, 0x42ee51f7u, 0x4340321fu, 0x439aff91u}},
    {0x1.35f2880000000p+15f,
     36,
     {0x3f800000u, 0x3fe68184u, 0x404f8cfau, 0x40bae1aau, 0x4128454bu, 0x41978364u, 0x42086cb3u, 0x4275ad5au,
      0x42dd3609u, 0x43472e76u, 0x43b35886u, 0x44217c41u, 0x44916758u, 0x4502ec66u, 0x456bc544u, 0x45d44a7eu,
      0x463f2658u, 0x46ac1d23u}},
    {0x1.e848000000000p+18f,
     78,
     {0x3f800000u, 0x3fb33323u, 0x3ffae11au, 0x402f9d83u, 0x4075dc6eu, 0x40ac1a3eu, 0x40f0f174u, 0x4128a8f5u,
      0x416c1fa7u, 0x41a5494cu, 0x41e7668cu, 0x4221faedu, 0x4262c59du, 0x429ebd79u, 0x42de3c62u, 0x431b909cu,
      0x4359ca61u, 0x43987402u, 0x43d56f23u, 0x44156758u, 0x44512a3au, 0x44926a4eu, 0x44ccfb27u, 0x450f7c8eu,
      0x4548e182u, 0x458c9dceu, 0x45c4dcdbu, 0x4609cdc0u, 0x4640ecc8u, 0x46870c19u, 0x46bd10deu, 0x4704588fu,
      0x473948b8u, 0x4781b2dbu, 0x47b593efu, 0x47fe356au, 0x4831f221u, 0x48791fb0u, 0x48ae62ebu}},
};

}  // namespace

TEST_CASE("sleef_powf reproduces SLEEF powf_u10 bit for bit on the table", "[sleef]") {
    REQUIRE(sizeof kTable / sizeof kTable[0] == 200);
    int mismatches = 0;
    for (const PowCase& c : kTable) {
        const float got = sleef_powf(c.base, c.e);
        if (to_bits(got) != c.bits) {
            ++mismatches;
            CAPTURE(c.base, c.e, got, to_bits(got), c.bits);
            CHECK(to_bits(got) == c.bits);
        }
    }
    CHECK(mismatches == 0);
}

TEST_CASE("sleef_powf on the RoPE exponents of dim 38 where double pow parts from torch", "[sleef]") {
    // base 1e4, dim 38, i = 2: torch 0x4028bee4, (float)pow((double)1e4, e) one ULP off.
    const float e = rope_exponent(2, 38);
    CHECK(to_bits(sleef_powf(10000.0f, e)) == 0x4028bee4u);
    CHECK(to_bits(static_cast<float>(std::pow(10000.0, static_cast<double>(e)))) != 0x4028bee4u);
}

TEST_CASE("torch_pow_scalar_tensor matches PyTorch: SLEEF body, libm tail", "[sleef]") {
    for (const TorchCase& c : kTorch) {
        const std::size_t n = static_cast<std::size_t>(c.dim / 2);
        REQUIRE(c.bits.size() == n);
        std::vector<float> e(n), out(n);
        for (std::size_t i = 0; i < n; ++i) e[i] = rope_exponent(static_cast<int>(i), c.dim);
        torch_pow_scalar_tensor(out.data(), c.base, e.data(), n);
        for (std::size_t i = 0; i < n; ++i) {
            CAPTURE(c.base, c.dim, i, out[i]);
            CHECK(to_bits(out[i]) == c.bits[i]);
        }
    }
}

TEST_CASE("torch_pow_scalar_tensor splits at n - n % 16, also in place", "[sleef]") {
    for (std::size_t n : {0, 1, 3, 4, 5, 8, 15, 16, 17, 31, 32, 33, 64}) {
        std::vector<float> e(n), out(n);
        for (std::size_t i = 0; i < n; ++i) e[i] = rope_exponent(static_cast<int>(i), 74);
        torch_pow_scalar_tensor(out.data(), 10000.0f, e.data(), n);
        const std::size_t body = n - n % 16;
        for (std::size_t i = 0; i < n; ++i) {
            CAPTURE(n, i);
            const float want = i < body ? sleef_powf(10000.0f, e[i]) : std::pow(10000.0f, e[i]);
            CHECK(to_bits(out[i]) == to_bits(want));
        }
        torch_pow_scalar_tensor(e.data(), 10000.0f, e.data(), n);  // out aliases e
        for (std::size_t i = 0; i < n; ++i) CHECK(to_bits(e[i]) == to_bits(out[i]));
    }
}

TEST_CASE("sleef_powf special cases follow SLEEF", "[sleef]") {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    struct Special {
        float x, y, want;
    };
    const Special cases[] = {
        {2, 10, 1024},       {2, -3, 0.125f},
        {10, 2, 100},        {3, 3, 27},
        {4, 0.5f, 2},        {1, nan, 1},
        {1, inf, 1},         {1, -inf, 1},
        {nan, 0, 1},         {5, -0.0f, 1},
        {0, 0, 1},           {0, 2.5f, 0},
        {0, -1, inf},        {-0.0f, -1, -inf},
        {-0.0f, 3, -0.0f},   {-0.0f, 2, 0},
        {inf, 2, inf},       {inf, -2, 0},
        {-inf, 3, -inf},     {-inf, 2, inf},
        {-inf, -3, -0.0f},   {-2, 3, -8},
        {-2, 2, 4},          {-2, -1, -0.5f},
        {0.5f, inf, 0},      {2, inf, inf},
        {-1, inf, 1},        {2, -inf, 0},
        {0.5f, -inf, inf},   {-1, -inf, 1},
        {10000, 20, inf},    {10000, -20, 0},
        {10000, 1e30f, inf}, {10000, -1e30f, 0},
        {2, 126, 0x1p126f},  {2, -149, 0x1p-149f},
        {2, 128, inf},       {0x1p-149f, 0.5f, 0x1.6a09e6p-75f},  // subnormal base
        {1e-40f, 1, 1e-40f}, {3e38f, 1, 3e38f},
    };
    for (const Special& c : cases) {
        const float got = sleef_powf(c.x, c.y);
        CAPTURE(c.x, c.y, got, c.want);
        CHECK(to_bits(got) == to_bits(c.want));  // also tells -0 from +0
    }
    CHECK(std::isnan(sleef_powf(nan, 1)));
    CHECK(std::isnan(sleef_powf(2, nan)));
    CHECK(std::isnan(sleef_powf(-2, 0.5f)));
    CHECK(std::isnan(sleef_powf(-8, 1.0f / 3)));
}

#if POSENC_HAVE_DLOPEN
TEST_CASE("sleef_powf against libsleef: RoPE sweep and random pairs (native)", "[sleef]") {
    // A missing library fails the test: a sweep that silently skipped is
    // how it once never ran in CI. scripts/setup/setup.sh installs it.
    void* lib = dlopen("libsleef.so.3", RTLD_NOW | RTLD_LOCAL);
    const char* why = lib ? "" : dlerror();
    INFO("libsleef.so.3 not found (" << why << "): install Debian's libsleef3 (scripts/setup/setup.sh does)");
    REQUIRE(lib != nullptr);
    using PowFn = float (*)(float, float);
    const auto ref = reinterpret_cast<PowFn>(dlsym(lib, "Sleef_finz_powf1_u10purecfma"));
    REQUIRE(ref != nullptr);

    // pass 1: every RoPE exponent of every even dim up to 2048, four bases
    long mismatches = 0, total = 0;
    for (float base : {10000.0f, 500000.0f, 500.0f, 39673.265625f}) {
        for (int dim = 2; dim <= 2048; dim += 2) {
            for (int i = 0; i < dim / 2; ++i) {
                const float e = rope_exponent(i, dim);
                ++total;
                if (to_bits(sleef_powf(base, e)) != to_bits(ref(base, e))) ++mismatches;
            }
        }
    }
    // pass 2: random bit patterns: every class of x and y (NaN payloads too)
    std::uint32_t state = 12345;
    auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return state;
    };
    for (int k = 0; k < 200000; ++k) {
        std::uint32_t bx = next(), by = next();
        float x, y;
        std::memcpy(&x, &bx, sizeof x);
        std::memcpy(&y, &by, sizeof y);
        if (k % 2 == 0) {  // half of them: positive bases (or +inf/NaN) and y in [-4, 4)
            x = std::fabs(x);
            y = std::ldexp(static_cast<float>(by >> 8), -21) - 4.0f;
        }
        ++total;
        const float got = sleef_powf(x, y), want = ref(x, y);
        if (to_bits(got) != to_bits(want)) {
            ++mismatches;
            CAPTURE(x, y, got, want);
            CHECK(to_bits(got) == to_bits(want));
        }
    }
    // every exponent of the four bases (sum of dim/2 over the even dims up to 2048) and every random pair
    CHECK(total == 4L * (1024 * 1025 / 2) + 200000);
    CAPTURE(total);
    CHECK(mismatches == 0);
    dlclose(lib);
}
#endif

TEST_CASE("sleef_expf matches a correctly rounded exp to 1 ULP and keeps its edges", "[sleef]") {
    REQUIRE(sleef_expf(0.0f) == 1.0f);
    REQUIRE(sleef_expf(-104.5f) == 0.0f);
    REQUIRE(sleef_expf(-INFINITY) == 0.0f);
    REQUIRE(std::isinf(sleef_expf(100.5f)));
    REQUIRE(std::isinf(sleef_expf(89.0f)));  // past FLT_MAX, as SLEEF's own overflow
    double worst = 0;
    for (int i = -20000; i <= 17000; ++i) {
        const float x = static_cast<float>(i) * 0.00517f;     // -103.4 .. 87.9
        const double ref = std::exp(static_cast<double>(x));  // error in ULPs of the rounded exp
        int e;
        std::frexp(static_cast<float>(ref), &e);
        worst = std::fmax(worst, std::fabs(sleef_expf(x) - ref) / std::ldexp(1.0, std::max(e - 24, -149)));
    }
    REQUIRE(worst <= 1.0);
}

TEST_CASE("sleef_expf gives PyTorch's sinusoidal divisors bit for bit", "[sleef]") {
    const auto cases = fixture::all("sinusoidal_div");
    for (const auto& fc : cases) {
        const std::int64_t d = fc.integer("d_model");
        const double base = fc.num("base");
        // -ln(base)/d is a Python float; PyTorch rounds it to float32 once.
        const float c = static_cast<float>(-std::log(base) / static_cast<double>(d));
        const auto want = fc.tensor("out").f32();
        REQUIRE(static_cast<std::int64_t>(want.size()) == d / 2);
        std::size_t mismatches = 0;
        for (std::int64_t i = 0; i < d / 2; ++i) {
            const float got = sleef_expf(static_cast<float>(2 * i) * c);
            if (to_bits(got) != to_bits(want[static_cast<std::size_t>(i)])) ++mismatches;
        }
        INFO(fc.file << " d_model " << d << " base " << base);
        REQUIRE(mismatches == 0);
    }
}

// --- sin and cos ------------------------------------------------------------

namespace {

std::uint64_t splitmix64(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float float_of_bits(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// make_sincos.py's families, drawn the same way (see its docstring).
constexpr std::size_t kFamilySize = std::size_t{1} << 20;
constexpr std::size_t kHashChunk = std::size_t{1} << 16;

// Bit patterns in [lo, hi), sign from bit 32 of r.
float signed_range(std::uint64_t r, std::uint32_t lo, std::uint32_t hi) {
    std::uint32_t b = lo + static_cast<std::uint32_t>((r & 0xFFFFFFFFull) % (hi - lo));
    b |= static_cast<std::uint32_t>((r >> 32) & 1u) << 31;
    return float_of_bits(b);
}

// f32(f32(pos) * table(kind, dim)[i]), dim = 2 * (1 + r % 2048).
template <class Table>
std::vector<float> family_angles(int family, int kinds, Table table) {
    std::map<std::pair<int, int>, std::vector<float>> cache;
    std::vector<float> x(kFamilySize);
    for (std::size_t i = 0; i < kFamilySize; ++i) {
        const std::uint64_t r = splitmix64((static_cast<std::uint64_t>(family) << 40) + i);
        const int dim = static_cast<int>(2 * (1 + r % 2048));
        const std::size_t j = static_cast<std::size_t>((r >> 11) % static_cast<std::uint64_t>(dim / 2));
        const float pos = static_cast<float>((r >> 23) % 65537);
        const int kind = static_cast<int>((r >> 40) % static_cast<std::uint64_t>(kinds));
        auto& t = cache[{kind, dim}];
        if (t.empty()) {
            t.resize(static_cast<std::size_t>(dim / 2));
            table(kind, dim, t.data());
        }
        x[i] = pos * t[j];
    }
    return x;
}

std::vector<float> family_args(int family, const std::string& name) {
    if (name == "rope")
        return family_angles(family, 3, [](int kind, int dim, float* inv) {
            const double bases[] = {10000.0, 500000.0, 1000000.0};
            rope_inv_freq(inv, dim, bases[kind]);
        });
    if (name == "sinusoidal")
        return family_angles(family, 1, [](int, int d, float* div) { sinusoidal_div(div, d, 10000.0); });
    std::vector<float> x(kFamilySize);
    for (std::size_t i = 0; i < kFamilySize; ++i) {
        const std::uint64_t r = splitmix64((static_cast<std::uint64_t>(family) << 40) + i);
        if (name == "bits")
            x[i] = float_of_bits(static_cast<std::uint32_t>(r));
        else if (name == "narrow")
            x[i] = signed_range(r, 0, to_bits(125.0f));
        else if (name == "boundary")
            x[i] = signed_range(r, to_bits(64.0f), to_bits(256.0f));
        else
            FAIL("unknown family " << name);
    }
    return x;
}

// sum of splitmix64(bits(y[i]) | i << 32) over the chunk; NaN as 0x7fc00000.
std::uint64_t chunk_hash(const std::vector<float>& y, std::size_t first) {
    std::uint64_t h = 0;
    const std::size_t end = std::min(first + kHashChunk, y.size());
    for (std::size_t i = first; i < end; ++i) {
        const std::uint32_t b = std::isnan(y[i]) ? 0x7FC00000u : to_bits(y[i]);
        h += splitmix64(b | (static_cast<std::uint64_t>(i) << 32));
    }
    return h;
}

}  // namespace

TEST_CASE("torch_sincos matches torch.sin/cos bit for bit on 5 x 2^20 arguments", "[sleef]") {
    std::ifstream in(fixture::dir() + "/sincos_hashes.dat");
    REQUIRE(in.good());
    std::string line, name;
    int family = -1;
    std::vector<float> x, s, c;
    std::size_t chunks = 0, mismatched = 0;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string tag;
        ls >> tag;
        if (tag == "family") {
            std::size_t n = 0;
            ls >> name >> n;
            REQUIRE(n == kFamilySize);
            x = family_args(++family, name);
            s.assign(n, 0.0f);
            c.assign(n, 0.0f);
            kernels::torch_sincos(x.data(), s.data(), c.data(), n);
        } else if (tag == "chunk") {
            std::size_t first = 0;
            std::string hs, hc;
            ls >> first >> hs >> hc;
            ++chunks;
            const bool ok = chunk_hash(s, first) == std::stoull(hs, nullptr, 16) &&
                            chunk_hash(c, first) == std::stoull(hc, nullptr, 16);
            if (!ok) ++mismatched;
            INFO(name << " values " << first << " .. " << first + kHashChunk - 1);
            CHECK(ok);
        }
    }
    REQUIRE(family == 4);
    REQUIRE(chunks == 5 * kFamilySize / kHashChunk);
    REQUIRE(mismatched == 0);
}

TEST_CASE("sleef_sinf/cosf: edges, and the two reductions part on some small arguments", "[sleef]") {
    REQUIRE(to_bits(sleef_sinf(0.0f)) == 0u);
    REQUIRE(to_bits(sleef_sinf(-0.0f)) == 0x80000000u);
    REQUIRE(to_bits(sleef_sinf(-0.0f, true)) == 0x80000000u);
    REQUIRE(sleef_cosf(0.0f) == 1.0f);
    REQUIRE(sleef_cosf(0.0f, true) == 1.0f);
    for (float v : {INFINITY, -INFINITY, NAN}) {
        REQUIRE(std::isnan(sleef_sinf(v, true)));
        REQUIRE(std::isnan(sleef_cosf(v, true)));
    }
    // Largest float: Payne-Hanek's last table row.
    const float big = std::numeric_limits<float>::max();
    REQUIRE(std::fabs(sleef_sinf(big, true)) <= 1.0f);
    REQUIRE(std::fabs(sleef_cosf(big, true)) <= 1.0f);
    // Both reductions are <= 1 ULP, and differ in the last bit now and then:
    // torch's value for a small angle depends on its vector's neighbours.
    std::size_t differ = 0;
    for (int i = 0; i < 100000; ++i) {
        const float v = static_cast<float>(i) * 0.00123f;  // 0 .. 123
        if (sleef_sinf(v, false) != sleef_sinf(v, true) || sleef_cosf(v, false) != sleef_cosf(v, true)) ++differ;
        REQUIRE(std::fabs(sleef_sinf(v) - std::sin(static_cast<double>(v))) <= 6e-8);
        REQUIRE(std::fabs(sleef_cosf(v) - std::cos(static_cast<double>(v))) <= 6e-8);
    }
    REQUIRE(differ > 0);
    REQUIRE(differ < 5000);  // 1,969 of 100,000 when written
}

TEST_CASE("torch_sincos groups 8 lanes from the start; tails, nulls and aliasing", "[sleef]") {
    // Small angles, with one large one in lane 3 of the second group: only
    // that group (indices 8..15) takes the wide reduction.
    for (std::size_t n : {1u, 3u, 7u, 8u, 9u, 12u, 16u, 17u, 64u}) {
        std::vector<float> x(n), s(n), c(n), s_only(n), c_only(n);
        for (std::size_t i = 0; i < n; ++i) x[i] = 0.5f + 7.3f * static_cast<float>(i);
        if (n > 11) x[11] = 1000.0f;
        kernels::torch_sincos(x.data(), s.data(), c.data(), n);
        torch_sin(s_only.data(), x.data(), n);
        torch_cos(c_only.data(), x.data(), n);
        for (std::size_t i = 0; i < n; ++i) {
            const bool wide = n > 11 && i >= 8 && i < 16;
            INFO("n " << n << " i " << i);
            REQUIRE(to_bits(s[i]) == to_bits(sleef_sinf(x[i], wide)));
            REQUIRE(to_bits(c[i]) == to_bits(sleef_cosf(x[i], wide)));
            REQUIRE(to_bits(s_only[i]) == to_bits(s[i]));
            REQUIRE(to_bits(c_only[i]) == to_bits(c[i]));
        }
        std::vector<float> y = x;
        torch_sin(y.data(), y.data(), n);  // in place
        REQUIRE(std::equal(y.begin(), y.end(), s.begin(), [](float a, float b) { return to_bits(a) == to_bits(b); }));
        // the same results as (sin, cos) pairs
        std::vector<float> pairs(2 * n);
        kernels::torch_sincos_interleaved(x.data(), pairs.data(), n);
        for (std::size_t i = 0; i < n; ++i) {
            REQUIRE(to_bits(pairs[2 * i]) == to_bits(s[i]));
            REQUIRE(to_bits(pairs[2 * i + 1]) == to_bits(c[i]));
        }
    }
    kernels::torch_sincos(nullptr, nullptr, nullptr, 0);  // n = 0 touches nothing
    kernels::torch_sincos_interleaved(nullptr, nullptr, 0);
}

#if POSENC_SIMD
// --- simd::torch_sincos against its scalar twin ------------------------------

namespace {

bool same_bits(float a, float b) {
    return std::isnan(a) ? std::isnan(b) : to_bits(a) == to_bits(b);
}

// Both twins over x; the number of lanes where they part (sin or cos).
std::size_t twin_mismatches(const std::vector<float>& x) {
    const std::size_t n = x.size();
    std::vector<float> s1(n), c1(n), s2(n), c2(n);
    scalar::torch_sincos(x.data(), s1.data(), c1.data(), n);
    simd::torch_sincos(x.data(), s2.data(), c2.data(), n);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (same_bits(s1[i], s2[i]) && same_bits(c1[i], c2[i])) continue;
        if (++bad <= 5) {
            INFO("x " << x[i] << " (0x" << std::hex << to_bits(x[i]) << std::dec << ") at " << i << ": sin " << s1[i]
                      << " vs " << s2[i] << ", cos " << c1[i] << " vs " << c2[i]);
            CHECK(false);
        }
    }
    return bad;
}

}  // namespace

TEST_CASE("simd::torch_sincos matches its scalar twin on the course's angles", "[sleef]") {
    // Angles formed as the core forms them: sinusoidal tables as one flat
    // (L, d/2) run of f32(pos) * div_i; RoPE rows of f32(m) * inv_i, each
    // row its own run (rope_apply's torch_sincos call).
    std::size_t total = 0, bad = 0;
    for (int d : {64, 128, 256, 512}) {
        const std::size_t half = static_cast<std::size_t>(d / 2), rows = 2048;
        std::vector<float> div(half), x(rows * half);
        sinusoidal_div(div.data(), d, 10000.0);
        for (std::size_t p = 0; p < rows; ++p)
            for (std::size_t i = 0; i < half; ++i) x[p * half + i] = static_cast<float>(p) * div[i];
        total += x.size();
        bad += twin_mismatches(x);
    }
    for (double base : {10000.0, 500000.0, 1000000.0}) {
        for (int dim : {64, 128, 160}) {
            const std::size_t half = static_cast<std::size_t>(dim / 2), rows = 4096;
            std::vector<float> inv(half), x(rows * half);
            rope_inv_freq(inv.data(), dim, base);
            for (std::size_t m = 0; m < rows; ++m)
                for (std::size_t i = 0; i < half; ++i) x[m * half + i] = static_cast<float>(m) * inv[i];
            // each row its own call, as rope_apply makes them (80 lanes: groups
            // restart at every row; 32 and 64 lanes: the same as one run)
            for (std::size_t m = 0; m < rows; ++m) {
                const std::vector<float> row(x.begin() + static_cast<std::ptrdiff_t>(m * half),
                                             x.begin() + static_cast<std::ptrdiff_t>((m + 1) * half));
                bad += twin_mismatches(row);
            }
            total += x.size();
        }
    }
    CAPTURE(total);
    CHECK(total == 3145728);
    REQUIRE(bad == 0);
}

TEST_CASE("simd::torch_sincos matches its scalar twin on random and adversarial floats", "[sleef]") {
    std::uint64_t k = 0;
    auto rnd = [&k] { return splitmix64(0x5eed0000ull + k++); };
    const float pi2 = 1.57079632679489661923f;
    auto adversarial = [&](std::uint64_t r) -> float {
        const std::int32_t ulps = static_cast<std::int32_t>((r >> 8) % 65) - 32;
        switch (r % 8) {
            case 0: {  // within 32 ULPs of a multiple of pi/2 below 125
                const float m = static_cast<float>((r >> 16) % 80) * pi2;
                return float_of_bits(static_cast<std::uint32_t>(static_cast<std::int32_t>(to_bits(m)) + ulps)) *
                       ((r >> 40) & 1 ? -1.0f : 1.0f);
            }
            case 1:  // within 32 ULPs of +-125: either side of the reduction switch
                return float_of_bits(static_cast<std::uint32_t>(static_cast<std::int32_t>(to_bits(125.0f)) + ulps)) *
                       ((r >> 40) & 1 ? -1.0f : 1.0f);
            case 2:  // subnormal, and tiny normal
                return float_of_bits(static_cast<std::uint32_t>((r >> 8) % 0x01000000u) |
                                     static_cast<std::uint32_t>((r >> 40) & 1) << 31);
            case 3: {  // specials and huge
                const float sp[] = {0.0f,   -0.0f, INFINITY, -INFINITY, NAN, -NAN, std::numeric_limits<float>::max(),
                                    -1e30f, 1e10f, 125.0f,   -125.0f};
                return sp[(r >> 8) % (sizeof sp / sizeof sp[0])];
            }
            case 4:  // any bit pattern
                return float_of_bits(static_cast<std::uint32_t>(r >> 16));
            case 5: {  // within 32 ULPs of a multiple of pi/4 up to 2^16, or of +-2^16 (the vector
                       // wide path's edges: tiny reduced arguments, j's rounding, its domain)
                const float m = (r >> 41) % 16 == 0 ? 65536.0f : static_cast<float>((r >> 16) % 83443) * (pi2 / 2);
                return float_of_bits(static_cast<std::uint32_t>(static_cast<std::int32_t>(to_bits(m)) + ulps)) *
                       ((r >> 40) & 1 ? -1.0f : 1.0f);
            }
            default:  // uniform below 125 (most groups stay narrow)
                return signed_range(r >> 3, 0, to_bits(125.0f));
        }
    };
    std::size_t total = 0, bad = 0;
    // pass 1: 2^21 narrow values (every float below 125 by bit pattern): all
    // groups narrow, the vector path throughout
    {
        std::vector<float> x(std::size_t{1} << 21);
        for (auto& v : x) v = signed_range(rnd(), 0, to_bits(125.0f));
        total += x.size();
        bad += twin_mismatches(x);
    }
    // pass 2: 2^19 adversarial values, one in 64 of them in an otherwise
    // narrow stream so that most groups stay narrow; then all adversarial
    {
        std::vector<float> x(std::size_t{1} << 19);
        for (std::size_t i = 0; i < x.size(); ++i) {
            const std::uint64_t r = rnd();
            x[i] = (i >> 18) == 0 && (r >> 58) != 0 ? signed_range(r, 0, to_bits(125.0f)) : adversarial(r);
        }
        total += x.size();
        bad += twin_mismatches(x);
    }
    // pass 3: arrays of every length 1..40 (tails padded with zeros), in place
    for (std::size_t n = 1; n <= 40; ++n) {
        std::vector<float> x(n);
        for (auto& v : x) v = adversarial(rnd());
        if (n % 3 == 0)
            for (auto& v : x) v = std::fmod(v, 125.0f);  // NaN stays NaN
        total += n;
        bad += twin_mismatches(x);
        std::vector<float> s(n), c(n), y = x, z = x;
        scalar::torch_sincos(x.data(), s.data(), c.data(), n);
        simd::torch_sincos(y.data(), y.data(), nullptr, n);  // sin in place
        simd::torch_sincos(z.data(), nullptr, z.data(), n);  // cos in place
        for (std::size_t i = 0; i < n; ++i) {
            CHECK(same_bits(y[i], s[i]));
            CHECK(same_bits(z[i], c[i]));
        }
    }
    CAPTURE(total);
    CHECK(total >= 2600000);
    REQUIRE(bad == 0);
}
TEST_CASE("simd::torch_sincos_interleaved matches its scalar twin", "[sleef]") {
    // a sinusoidal table's angles (narrow and wide groups, rows that end
    // inside a group), with an adversarial value every 97 lanes
    const double worst = test_util::check_twins(
        [](std::int64_t n, test_util::Kernel k) {
            std::vector<float> x(test_util::sz(n) * 37), out(2 * x.size());
            for (std::size_t j = 0; j < x.size(); ++j) {
                const float a = static_cast<float>(j / 24) * std::exp(-0.4f * static_cast<float>(j % 24));
                x[j] = j % 97 == 96 ? float_of_bits(0x42fa0000u + static_cast<std::uint32_t>(j)) : a;
            }
            (k == test_util::Kernel::simd ? simd::torch_sincos_interleaved : scalar::torch_sincos_interleaved)(
                x.data(), out.data(), x.size());
            return out;
        },
        0.0, 0.0, {1000, 4096});
    CHECK(worst == 0);
}
#endif
