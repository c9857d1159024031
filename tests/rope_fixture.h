// The RoPE scaling a fixture case describes (its params in snake_case, as
// tests/fixtures/README.md lists them), and the scalings tests build by hand.
#pragma once
#include <cstdint>

#include "fixture.h"
#include "rope_scaling.h"

inline posenc::RopeScaling rope_scaling_of(const fixture::Case& c) {
    posenc::RopeScaling s;
    s.type = posenc::rope_scaling_type(c.str("scaling").c_str());
    if (c.has("factor")) s.factor = c.num("factor");
    if (c.has("max_positions")) s.max_positions = c.integer("max_positions");
    if (c.has("seq_len")) s.seq_len = c.integer("seq_len");
    if (c.has("original_max_positions")) s.original_max_positions = c.integer("original_max_positions");
    if (c.has("beta_fast")) s.beta_fast = c.num("beta_fast");
    if (c.has("beta_slow")) s.beta_slow = c.num("beta_slow");
    if (c.has("low_freq_factor")) s.low_freq_factor = c.num("low_freq_factor");
    if (c.has("high_freq_factor")) s.high_freq_factor = c.num("high_freq_factor");
    return s;
}

// Scalings the tests build by hand: `type` with `factor`, every other field RopeScaling{}'s.
inline posenc::RopeScaling make_scaling(posenc::RopeScaling::Type type, double factor) {
    posenc::RopeScaling s;
    s.type = type;
    s.factor = factor;
    return s;
}

// YaRN extending an original length of `lorig` positions by `factor`.
inline posenc::RopeScaling yarn_scaling(double factor, std::int64_t lorig) {
    posenc::RopeScaling s = make_scaling(posenc::RopeScaling::Type::Yarn, factor);
    s.original_max_positions = lorig;
    return s;
}
