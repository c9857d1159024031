#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "caps.h"
#include "errors.h"
#include "fixture.h"
#include "rope_fixture.h"
#include "rope_scaling.h"

using namespace posenc;
using Type = RopeScaling::Type;

constexpr double kPi = 3.14159265358979323846;

namespace {

std::vector<float> inv_freq(std::int64_t dim, double base, const RopeScaling& s = RopeScaling{}) {
    std::vector<float> inv(static_cast<std::size_t>(dim / 2));
    rope_scaling_inv_freq(inv.data(), dim, base, s);
    return inv;
}

// pytorch-semantics.md section 3, written out independently:
//   e_i = f32(2i) / f32(dim);  p_i = (float)pow((double)f32(base), e_i);  inv_i = 1 / p_i
// PyTorch's own float32 pow (SLEEF powf_u10 / libm powf) is 1 ULP away from
// this for about 1% of exponents; the core reproduces PyTorch's.
float unscaled(std::int64_t i, std::int64_t dim, double base) {
    const float e = static_cast<float>(2 * i) / static_cast<float>(dim);
    const float p = static_cast<float>(std::pow(static_cast<double>(static_cast<float>(base)), static_cast<double>(e)));
    return 1.0f / p;
}

// Distance in units in the last place between two positive floats.
std::int64_t ulps(float a, float b) {
    std::int32_t ia, ib;
    std::memcpy(&ia, &a, 4);
    std::memcpy(&ib, &b, 4);
    return std::abs(std::int64_t{ia} - std::int64_t{ib});
}

RopeScaling llama3(double factor, std::int64_t lorig = 8192) {
    RopeScaling s = make_scaling(Type::Llama3, factor);
    s.original_max_positions = lorig;
    return s;
}

RopeScaling dynamic(double factor, std::int64_t lmax, std::int64_t seq_len) {
    RopeScaling s = make_scaling(Type::Dynamic, factor);
    s.max_positions = lmax;
    s.seq_len = seq_len;
    return s;
}

}  // namespace

TEST_CASE("rope scaling type names parse; unknown names list the valid ones", "[rope_scaling]") {
    REQUIRE(rope_scaling_type("none") == Type::None);
    REQUIRE(rope_scaling_type("linear") == Type::Linear);
    REQUIRE(rope_scaling_type("dynamic") == Type::Dynamic);
    REQUIRE(rope_scaling_type("yarn") == Type::Yarn);
    REQUIRE(rope_scaling_type("llama3") == Type::Llama3);
    REQUIRE_THROWS_AS(rope_scaling_type("ntk"), TypeError);
    REQUIRE_THROWS_WITH(rope_scaling_type("YaRN"),
                        Catch::Contains("unknown RoPE scaling type 'YaRN'") &&
                            Catch::Contains("'none', 'linear', 'dynamic', 'yarn', 'llama3'"));
    REQUIRE_THROWS_AS(rope_scaling_type(""), TypeError);
    REQUIRE_THROWS_AS(rope_scaling_type(nullptr), TypeError);
}

namespace {

// Each RopeScaling field by the name the core's errors use, with a setter to
// a valid value unlike any the configs below hold.
using Perturb = void (*)(RopeScaling&);
const std::pair<const char*, Perturb> kPerturb[] = {
    {"factor", [](RopeScaling& r) { r.factor = 3.0; }},
    {"max_positions", [](RopeScaling& r) { r.max_positions = 1000; }},
    {"seq_len", [](RopeScaling& r) { r.seq_len = 2000; }},
    {"original_max_positions", [](RopeScaling& r) { r.original_max_positions = 128; }},
    {"beta_fast", [](RopeScaling& r) { r.beta_fast = 16.0; }},
    {"beta_slow", [](RopeScaling& r) { r.beta_slow = 2.0; }},
    {"truncate", [](RopeScaling& r) { r.truncate = !r.truncate; }},
    {"attention_factor", [](RopeScaling& r) { r.attention_factor = 1.5; }},
    {"mscale", [](RopeScaling& r) { r.mscale = 0.5; }},
    {"mscale_all_dim", [](RopeScaling& r) { r.mscale_all_dim = 0.7; }},
    {"short_factor", [](RopeScaling& r) { r.short_factor.assign(4, 2.0f); }},
    {"long_factor", [](RopeScaling& r) { r.long_factor.assign(4, 3.0f); }},
    {"low_freq_factor", [](RopeScaling& r) { r.low_freq_factor = 2.0; }},
    {"high_freq_factor", [](RopeScaling& r) { r.high_freq_factor = 8.0; }},
};

// Sets the field called `name` (kPerturb); false for a name RopeScaling has no field for.
bool perturb(RopeScaling& s, const std::string& name) {
    for (const auto& [field, set] : kPerturb) {
        if (name != field) continue;
        set(s);
        return true;
    }
    return false;
}

}  // namespace

TEST_CASE("rope_scaling_fields: each type lists real fields and reads no field it does not list", "[rope_scaling]") {
    std::vector<std::string> all;  // every RopeScaling field but type
    for (const auto& field : kPerturb) all.push_back(field.first);
    RopeScaling longrope = make_scaling(Type::Longrope, std::nan(""));
    longrope.original_max_positions = 64;
    longrope.max_positions = 512;
    longrope.seq_len = 256;
    longrope.short_factor = {1.0f, 1.5f, 2.0f, 2.5f};
    longrope.long_factor = {1.0f, 4.0f, 8.0f, 16.0f};
    const RopeScaling configs[] = {RopeScaling{},         make_scaling(Type::Linear, 2.0),
                                   dynamic(2.0, 64, 256), yarn_scaling(4.0, 64),
                                   llama3(8.0, 64),       longrope};
    std::vector<std::string> listed_somewhere;
    for (const RopeScaling& s : configs) {
        std::vector<RopeScalingField> fields;
        for (const RopeScalingField* f = rope_scaling_fields(s.type); f->name; ++f) fields.push_back(*f);
        CAPTURE(rope_scaling_type_name(s.type));
        CHECK(rope_scaling_defaults(s.type).type == s.type);
        for (const auto& f : fields) {
            RopeScaling probe = s;
            CAPTURE(f.name);
            REQUIRE(perturb(probe, f.name));  // a RopeScaling field
            listed_somewhere.push_back(f.name);
        }
        // a field the type does not list changes neither the frequencies nor the attention factor
        const std::vector<float> want = inv_freq(8, 10000.0, s);
        for (const std::string& name : all) {
            bool listed = false;
            for (const auto& f : fields) listed = listed || name == f.name;
            if (listed) continue;
            CAPTURE(name);
            RopeScaling probe = s;
            REQUIRE(perturb(probe, name));
            CHECK(inv_freq(8, 10000.0, probe) == want);
            CHECK(rope_scaling_attention_factor(probe) == rope_scaling_attention_factor(s));
        }
    }
    // and every field is read by some type
    for (const std::string& name : all) {
        CAPTURE(name);
        CHECK(std::find(listed_somewhere.begin(), listed_somewhere.end(), name) != listed_somewhere.end());
    }
    CHECK(rope_scaling_fields(Type::None)->name == nullptr);
    CHECK(std::isnan(rope_scaling_defaults(Type::Longrope).factor));
    CHECK(rope_scaling_defaults(Type::Yarn).factor == RopeScaling{}.factor);
}

TEST_CASE("no scaling: inv_i = 1 / f32(base)^(f32(2i)/f32(dim)) with PyTorch's pow", "[rope_scaling]") {
    std::int64_t off = 0, total = 0;
    for (std::int64_t dim : {2, 4, 6, 14, 34, 38, 64, 128, 256, 1000}) {
        for (double base : {10000.0, 500000.0, 1e6, 12345.678, 2.0, 0.5}) {
            INFO("dim " << dim << " base " << base);
            const auto inv = inv_freq(dim, base);
            for (std::int64_t i = 0; i < dim / 2; ++i) {
                const std::int64_t d = ulps(inv[static_cast<std::size_t>(i)], unscaled(i, dim, base));
                REQUIRE(d <= 2);  // p_i 1 ULP apart can put 1 / p_i 2 apart
                off += d != 0;
                ++total;
            }
        }
    }
    REQUIRE(off * 50 < total);  // the double formula is right for > 98%
    // Where torch 1.13 differs from the double formula (values from torch):
    // SLEEF powf_u10 in 16-wide blocks ...
    REQUIRE(inv_freq(256, 1e4)[111] == 1.0f / 0x1.6fd744p+11f);  // double formula: 0x1.6fd746p+11
    REQUIRE(inv_freq(38, 1e4)[2] == 1.0f / 0x1.517dc8p+1f);      // double formula: 0x1.517dc6p+1
    REQUIRE(inv_freq(128, 1e6)[37] == 1.0f / 0x1.6fd744p+11f);
    // ... and libm powf on the last n % 16 pairs.
    REQUIRE(inv_freq(14, 1e6)[2] == 1.0f / 0x1.9e5baap+5f);  // double formula: 0x1.9e5ba8p+5
    const auto inv = inv_freq(128, 10000.0);
    REQUIRE(inv[0] == 1.0f);
    // Llama's head: every pair agrees with the double formula.
    for (std::int64_t i = 0; i < 64; ++i) REQUIRE(inv[static_cast<std::size_t>(i)] == unscaled(i, 128, 10000.0));
    // The last pair turns slowest: 10000^(-126/128) ~ 1.155e-4.
    REQUIRE(inv[63] == Approx(std::pow(10000.0, -126.0 / 128.0)).epsilon(1e-6));
    for (std::size_t i = 1; i < inv.size(); ++i) REQUIRE(inv[i] < inv[i - 1]);
    // Bases outside float32: f32(base) is inf or 0, as torch.tensor(base) makes it.
    REQUIRE(inv_freq(4, 1e300)[1] == 0.0f);
    REQUIRE(inv_freq(4, 1e300)[0] == 1.0f);
    REQUIRE(std::isinf(inv_freq(4, 1e-300)[1]));
}

TEST_CASE("linear scaling divides every frequency by f32(factor)", "[rope_scaling]") {
    for (double factor : {2.0, 4.0, 1.5, 0.5, 3.3}) {
        const auto base_inv = inv_freq(64, 10000.0);
        const auto inv = inv_freq(64, 10000.0, make_scaling(Type::Linear, factor));
        for (std::size_t i = 0; i < inv.size(); ++i) REQUIRE(inv[i] == base_inv[i] / static_cast<float>(factor));
    }
    // dim 2, factor 2: the single frequency is exactly 0.5 (the lesson's theta).
    REQUIRE(inv_freq(2, 10000.0, make_scaling(Type::Linear, 2.0))[0] == 0.5f);
}

TEST_CASE("dynamic NTK: unscaled up to Lmax, a larger base beyond", "[rope_scaling]") {
    const std::int64_t dim = 128;
    const auto plain = inv_freq(dim, 10000.0);
    for (double factor : {1.0, 1.1, 2.0, 4.0, 3.7}) {
        for (std::int64_t seq : {0, 1, 2048, 4096}) {
            INFO("factor " << factor << " seq_len " << seq);
            REQUIRE(inv_freq(dim, 10000.0, dynamic(factor, 4096, seq)) == plain);
        }
    }
    // base' = base * (factor*L/Lmax - (factor-1))^(dim/(dim-2)), in double.
    for (std::int64_t seq : {4097, 5000, 9096, 100000}) {
        INFO("seq_len " << seq);
        const double base2 = 10000.0 * std::pow(2.0 * double(seq) / 4096.0 - 1.0, 128.0 / 126.0);
        const auto inv = inv_freq(dim, 10000.0, dynamic(2.0, 4096, seq));
        REQUIRE(inv[0] == 1.0f);
        REQUIRE(inv == inv_freq(dim, base2));
        REQUIRE(inv[63] < plain[63]);
    }
    // The longer the sequence, the slower the slowest pair.
    REQUIRE(inv_freq(dim, 1e4, dynamic(2.0, 4096, 20000))[63] < inv_freq(dim, 1e4, dynamic(2.0, 4096, 8000))[63]);
}

TEST_CASE("yarn: dim 128, base 1e4, factor 4, Lorig 4096 ramps between pairs 20 and 46", "[rope_scaling]") {
    const std::int64_t dim = 128;
    const auto s = yarn_scaling(4.0, 4096);
    const auto inv = inv_freq(dim, 10000.0, s);
    const auto plain = inv_freq(dim, 10000.0);
    // Below low = 20 the ramp is 0: pure extrapolation, the unscaled frequency.
    for (std::size_t j = 0; j <= 20; ++j) REQUIRE(inv[j] == plain[j]);
    // From high = 46 on the ramp is 1: pure interpolation, 1 / (f32(factor) * p_j)
    // (NOT extrap / factor, which rounds differently).
    for (std::size_t j = 46; j < 64; ++j) {
        const float e = static_cast<float>(2 * j) / 128.0f;
        const float pos_freq = static_cast<float>(std::pow(10000.0, static_cast<double>(e)));
        REQUIRE(inv[j] == 1.0f / (4.0f * pos_freq));
        REQUIRE(inv[j] == Approx(plain[j] / 4.0).epsilon(1e-6));
    }
    // Between them a strict blend.
    for (std::size_t j = 21; j < 46; ++j) {
        REQUIRE(inv[j] < plain[j]);
        REQUIRE(inv[j] > plain[j] / 4.0f);
    }
    // The blend weight at pair j is (j - 20) / 26.
    const double w = (33.0 - 20.0) / 26.0;
    REQUIRE(inv[33] == Approx(plain[33] / 4.0 * w + plain[33] * (1 - w)).epsilon(1e-6));
    REQUIRE(rope_scaling_attention_factor(s) == 1.1386294f);
    REQUIRE(rope_scaling_attention_factor(s) == static_cast<float>(0.1 * std::log(4.0) + 1.0));
}

TEST_CASE("yarn: truncate off keeps the fractional correction range", "[rope_scaling]") {
    // corr_dim(32) = 20.94..., corr_dim(1) = 45.03...: with truncate the ramp
    // starts at 20, without it at 20.94, so pair 20 is pure extrapolation either
    // way but pair 21 blends less without truncation.
    auto s = yarn_scaling(4.0, 4096);
    const auto t = inv_freq(128, 10000.0, s);
    s.truncate = false;
    const auto f = inv_freq(128, 10000.0, s);
    REQUIRE(f[20] == t[20]);
    REQUIRE(f[21] > t[21]);
    REQUIRE(f[45] < t[45]);
    REQUIRE(f[63] == t[63]);
}

TEST_CASE("yarn: attention factor is 1 for factor <= 1; other types never scale", "[rope_scaling]") {
    REQUIRE(rope_scaling_attention_factor(yarn_scaling(1.0, 4096)) == 1.0f);
    REQUIRE(rope_scaling_attention_factor(yarn_scaling(0.5, 4096)) == 1.0f);
    REQUIRE(rope_scaling_attention_factor(yarn_scaling(8.0, 4096)) == static_cast<float>(0.1 * std::log(8.0) + 1.0));
    REQUIRE(rope_scaling_attention_factor(RopeScaling{}) == 1.0f);
    REQUIRE(rope_scaling_attention_factor(make_scaling(Type::Linear, 4.0)) == 1.0f);
    REQUIRE(rope_scaling_attention_factor(dynamic(4.0, 4096, 9000)) == 1.0f);
    REQUIRE(rope_scaling_attention_factor(llama3(8.0)) == 1.0f);
}

TEST_CASE("yarn: low == high gets HF's +0.001 instead of dividing by zero", "[rope_scaling]") {
    // dim 4, Lorig 1: both correction dims are below 0, so low = high = 0 and
    // the ramp is (j - 0) / 0.001: pair 0 extrapolates, pair 1 interpolates.
    const auto inv = inv_freq(4, 10000.0, yarn_scaling(4.0, 1));
    const auto plain = inv_freq(4, 10000.0);
    REQUIRE(inv[0] == plain[0]);
    REQUIRE(inv[1] == 1.0f / (4.0f * 100.0f));  // p_1 = 10000^(2/4) = 100
}

TEST_CASE("llama3: Meta's defaults keep short wavelengths and divide long ones by 8", "[rope_scaling]") {
    const std::int64_t dim = 128;
    const auto inv = inv_freq(dim, 500000.0, llama3(8.0));
    const auto plain = inv_freq(dim, 500000.0);
    int kept = 0, divided = 0, blended = 0;
    for (std::size_t i = 0; i < inv.size(); ++i) {
        const double wavelen = 2 * kPi / plain[i];
        if (wavelen < 8192.0 / 4.0) {
            REQUIRE(inv[i] == plain[i]);
            ++kept;
        } else if (wavelen > 8192.0) {
            REQUIRE(inv[i] == plain[i] / 8.0f);
            ++divided;
        } else {
            // smooth = (8192/wavelen - 1) / 3; inv = (1-smooth)*inv/8 + smooth*inv
            const double smooth = (8192.0 / wavelen - 1.0) / 3.0;
            REQUIRE(inv[i] == Approx((1 - smooth) * plain[i] / 8.0 + smooth * plain[i]).epsilon(1e-6));
            REQUIRE(inv[i] > plain[i] / 8.0f);
            REQUIRE(inv[i] < plain[i]);
            ++blended;
        }
    }
    REQUIRE(kept > 0);
    REQUIRE(divided > 0);
    REQUIRE(blended > 0);
    REQUIRE(kept + divided + blended == 64);
}

TEST_CASE("rope scaling: every field error names the field", "[rope_scaling]") {
    auto msg = [](const RopeScaling& s) {
        try {
            rope_scaling_check(s);
        } catch (const RangeError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    // None ignores every field.
    RopeScaling none;
    none.factor = -1;
    none.beta_fast = NAN;
    REQUIRE_NOTHROW(rope_scaling_check(none));

    REQUIRE(msg(make_scaling(Type::Linear, 0.0)).find("scaling.factor") != std::string::npos);
    REQUIRE(msg(make_scaling(Type::Linear, -2.0)).find("scaling.factor") != std::string::npos);
    REQUIRE(msg(make_scaling(Type::Linear, NAN)).find("scaling.factor") != std::string::npos);
    REQUIRE(msg(make_scaling(Type::Linear, INFINITY)).find("scaling.factor") != std::string::npos);
    REQUIRE_NOTHROW(rope_scaling_check(make_scaling(Type::Linear, 0.5)));

    REQUIRE_THROWS_WITH(rope_scaling_check(dynamic(0.5, 4096, 0)),
                        Catch::Contains("scaling.factor must be at least 1 for dynamic scaling, got 0.5"));
    REQUIRE_THROWS_WITH(rope_scaling_check(dynamic(NAN, 4096, 0)), Catch::Contains("scaling.factor"));
    REQUIRE_THROWS_WITH(rope_scaling_check(dynamic(2.0, 0, 0)),
                        Catch::Contains("scaling.max_positions must be between 1 and 16777216, got 0"));
    REQUIRE_THROWS_WITH(rope_scaling_check(dynamic(2.0, 4096, -1)),
                        Catch::Contains("scaling.seq_len must be between 0 and 16777216, got -1"));
    REQUIRE_THROWS_WITH(rope_scaling_check(dynamic(2.0, 4096, kMaxPosition + 1)), Catch::Contains("scaling.seq_len"));

    REQUIRE_THROWS_WITH(rope_scaling_check(yarn_scaling(4.0, 0)), Catch::Contains("scaling.original_max_positions"));
    REQUIRE_THROWS_WITH(rope_scaling_check(yarn_scaling(0.0, 4096)), Catch::Contains("scaling.factor"));
    auto y = yarn_scaling(4.0, 4096);
    y.beta_fast = 0;
    REQUIRE_THROWS_WITH(rope_scaling_check(y), Catch::Contains("scaling.beta_fast"));
    y = yarn_scaling(4.0, 4096);
    y.beta_slow = -1;
    REQUIRE_THROWS_WITH(rope_scaling_check(y), Catch::Contains("scaling.beta_slow"));
    y = yarn_scaling(4.0, 4096);
    y.beta_slow = 32;
    REQUIRE_THROWS_WITH(
        rope_scaling_check(y),
        Catch::Contains("scaling.beta_slow must be less than scaling.beta_fast, got beta_slow 32 and beta_fast 32"));

    REQUIRE_THROWS_WITH(rope_scaling_check(llama3(8.0, 0)), Catch::Contains("scaling.original_max_positions"));
    auto l = llama3(8.0);
    l.low_freq_factor = 0;
    REQUIRE_THROWS_WITH(rope_scaling_check(l), Catch::Contains("scaling.low_freq_factor"));
    l = llama3(8.0);
    l.high_freq_factor = INFINITY;
    REQUIRE_THROWS_WITH(rope_scaling_check(l), Catch::Contains("scaling.high_freq_factor"));
    l = llama3(8.0);
    l.low_freq_factor = 4;
    REQUIRE_THROWS_WITH(rope_scaling_check(l),
                        Catch::Contains("scaling.low_freq_factor must be less than scaling.high_freq_factor"));
    for (const auto& s : {make_scaling(Type::Linear, 0.0), dynamic(2.0, 0, 0), yarn_scaling(4.0, -5), llama3(-1.0)})
        REQUIRE_THROWS_AS(rope_scaling_check(s), RangeError);
}

TEST_CASE("rope_scaling_inv_freq checks dim and base", "[rope_scaling]") {
    std::vector<float> buf(64);
    REQUIRE_THROWS_WITH(rope_scaling_inv_freq(buf.data(), 3, 1e4, RopeScaling{}),
                        Catch::Contains("dim must be even, got 3"));
    REQUIRE_THROWS_WITH(rope_scaling_inv_freq(buf.data(), 0, 1e4, RopeScaling{}),
                        Catch::Contains("dim must be between 2 and 65536, got 0"));
    REQUIRE_THROWS_AS(rope_scaling_inv_freq(buf.data(), kMaxDim + 2, 1e4, RopeScaling{}), RangeError);
    REQUIRE_THROWS_WITH(rope_scaling_inv_freq(buf.data(), 8, 0.0, RopeScaling{}), Catch::Contains("base must be"));
    REQUIRE_THROWS_WITH(rope_scaling_inv_freq(buf.data(), 8, NAN, RopeScaling{}), Catch::Contains("got NaN"));
    REQUIRE_THROWS_WITH(rope_scaling_inv_freq(buf.data(), 8, -2.5, RopeScaling{}), Catch::Contains("got -2.5"));
    REQUIRE_THROWS_WITH(rope_scaling_inv_freq(buf.data(), 2, 1e4, dynamic(2.0, 4096, 5000)),
                        Catch::Contains("dim must be at least 4 for dynamic scaling"));
    REQUIRE_THROWS_WITH(rope_scaling_inv_freq(buf.data(), 8, 1.0, yarn_scaling(4.0, 4096)),
                        Catch::Contains("base must not be 1 for yarn scaling"));
    REQUIRE_THROWS_WITH(rope_scaling_inv_freq(buf.data(), 8, 1e4, make_scaling(Type::Linear, 0.0)),
                        Catch::Contains("scaling.factor"));
}

TEST_CASE("rope inv freq fixtures from HF modeling_rope_utils with PyTorch", "[rope_scaling][fixture]") {
    const auto cases = fixture::all("rope_inv_freq");
    double worst = 0;
    for (const auto& c : cases) {
        INFO(c.file);
        const RopeScaling s = rope_scaling_of(c);
        const auto& want = c.tensor("out");
        const auto got = inv_freq(c.integer("dim"), c.num("base"), s);
        REQUIRE(got.size() == want.values.size());
        const double err = fixture::max_abs_diff(got, want.values);
        // Bit for bit: torch's pow is reproduced exactly (sleef.h), and a
        // frequency 1 ULP off shows at large positions.
        REQUIRE(err == 0);
        worst = std::fmax(worst, err);
        if (c.has("attention_factor"))
            REQUIRE(rope_scaling_attention_factor(s) == static_cast<float>(c.num("attention_factor")));
    }
    std::printf("[rope_scaling] %zu rope_inv_freq fixtures, max abs error %.3g\n", cases.size(), worst);
}

// LongRoPE (Phi-3), HF's _compute_longrope_parameters: the fixtures record
// microsoft/Phi-3-mini-128k-instruct's own short and long factor lists at the
// original length (short) and past it (long), with the attention factor
// sqrt(1 + ln(131072/4096) / ln(4096)).
TEST_CASE("longrope matches HF's Phi-3 frequencies and attention factor, bit for bit", "[rope_scaling][longrope]") {
    for (const char* name : {"rope_preset_phi-3-mini-128k_seq4096.txt", "rope_preset_phi-3-mini-128k_seq131072.txt"}) {
        const auto c = fixture::load(name);
        INFO(c.file);
        RopeScaling s;
        s.type = Type::Longrope;
        s.factor = std::nan("");  // HF: max_position_embeddings / original
        s.max_positions = c.integer("max_positions");
        s.original_max_positions = c.integer("original_max_positions");
        s.seq_len = c.integer("seq_len");
        s.short_factor = c.tensor("short_factor").f32();
        s.long_factor = c.tensor("long_factor").f32();
        const auto got = inv_freq(c.integer("dim"), c.num("base"), s);
        const auto want = c.tensor("out").f32();
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == want[i]);
        CHECK(rope_scaling_attention_factor(s) == static_cast<float>(c.num("attention_factor")));
    }
}

TEST_CASE("longrope: the list switches past the original length; bad lists are refused", "[rope_scaling][longrope]") {
    RopeScaling s;
    s.type = Type::Longrope;
    s.factor = 4;
    s.original_max_positions = 100;
    s.short_factor = {1, 1, 1, 1};
    s.long_factor = {1, 2, 4, 8};
    s.seq_len = 100;
    const auto short_inv = inv_freq(8, 10000, s);
    for (std::int64_t i = 0; i < 4; ++i)
        CHECK(short_inv[static_cast<std::size_t>(i)] == inv_freq(8, 10000)[static_cast<std::size_t>(i)]);
    s.seq_len = 101;
    const auto long_inv = inv_freq(8, 10000, s);
    CHECK(long_inv[3] < short_inv[3]);
    CHECK_THROWS_AS(inv_freq(6, 10000, s), RangeError);  // 3 pairs, 4 factors
    s.long_factor[2] = 0;
    CHECK_THROWS_AS(inv_freq(8, 10000, s), RangeError);
    s.long_factor[2] = std::nanf("");
    CHECK_THROWS_AS(inv_freq(8, 10000, s), RangeError);
    s.long_factor[2] = 4;
    s.attention_factor = 1.5;
    CHECK(rope_scaling_attention_factor(s) == 1.5f);
    s.attention_factor = -1;
    CHECK_THROWS_AS(rope_scaling_check(s), RangeError);
}

TEST_CASE("yarn attention factor from a config: attention_factor, then mscale / mscale_all_dim", "[rope_scaling]") {
    RopeScaling s = yarn_scaling(40, 4096);
    CHECK(rope_scaling_attention_factor(s) == static_cast<float>(0.1 * std::log(40.0) + 1));
    s.mscale = 0.707;
    s.mscale_all_dim = 0.707;
    CHECK(rope_scaling_attention_factor(s) == 1.0f);  // DeepSeek: the ratio is 1
    s.attention_factor = 1.25;
    CHECK(rope_scaling_attention_factor(s) == 1.25f);
}
