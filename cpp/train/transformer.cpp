#include "transformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "caps.h"
#include "check.h"
#include "errors.h"
#include "attention_backward.h"
#include "gemm.h"
#include "grow.h"
#include "layer_norm.h"
#include "rope.h"
#include "simd.h"
#include "sinusoidal.h"
#include "t5_bias.h"
#include "vecmath.h"

namespace posenc {

namespace {

using Input = TrainEncodingSpec::Input;
using Bias = TrainEncodingSpec::Bias;
using E = TrainEncoding;
// TrainEncodingSpec's rows: {encoding, name, input table, rotary, score bias}
constexpr TrainEncodingSpec kEncodings[] = {
    {E::none, "none", Input::none, false, Bias::none},
    {E::sinusoidal, "sinusoidal", Input::sinusoidal, false, Bias::none},
    {E::learned, "learned", Input::learned, false, Bias::none},
    {E::rope, "rope", Input::none, true, Bias::none},
    {E::alibi, "alibi", Input::none, false, Bias::alibi},
    {E::t5, "t5", Input::none, false, Bias::t5},
};
constexpr bool rows_in_enum_order() {
    for (std::size_t i = 0; i < sizeof kEncodings / sizeof *kEncodings; ++i)
        if (kEncodings[i].encoding != static_cast<E>(i)) return false;
    return true;
}
static_assert(rows_in_enum_order(), "kEncodings' rows must follow TrainEncoding's order");

}  // namespace

const char* train_encoding_name(TrainEncoding e) {
    const auto i = static_cast<std::size_t>(e);
    return i < sizeof kEncodings / sizeof *kEncodings ? kEncodings[i].name : nullptr;
}

const TrainEncodingSpec& train_encoding_spec(TrainEncoding e) {
    check_named("encoding", e, &train_encoding_name);
    return kEncodings[static_cast<std::size_t>(e)];
}

TrainEncoding train_encoding(const char* name) {
    return check_name("encoding", "encoding", name, &train_encoding_name);
}

namespace {

// Moves each head's run of head_dim values between the two layouts:
// (rows, d), rows = batch * L, and (batch, heads, L, head_dim).
void move_heads(float* out, const float* x, std::int64_t batch, std::int64_t length, std::int64_t heads,
                std::int64_t hd, bool to_heads) {
    const std::int64_t d = heads * hd;
    for (std::int64_t b = 0; b < batch; ++b)
        for (std::int64_t h = 0; h < heads; ++h)
            for (std::int64_t i = 0; i < length; ++i) {
                const std::int64_t row = (b * length + i) * d + h * hd;
                const std::int64_t head = ((b * heads + h) * length + i) * hd;
                if (to_heads)
                    std::copy_n(x + row, hd, out + head);
                else
                    std::copy_n(x + head, hd, out + row);
            }
}

// x: (rows, d) -> (batch, heads, L, head_dim)
void split_heads(float* out, const float* x, std::int64_t batch, std::int64_t length, std::int64_t heads,
                 std::int64_t hd) {
    move_heads(out, x, batch, length, heads, hd, true);
}

// (batch, heads, L, head_dim) -> (rows, d)
void merge_heads(float* out, const float* x, std::int64_t batch, std::int64_t length, std::int64_t heads,
                 std::int64_t hd) {
    move_heads(out, x, batch, length, heads, hd, false);
}

// Elementwise passes.
// out = a + b
void add_rows(float* __restrict out, const float* __restrict a, const float* __restrict b, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

}  // namespace

// A branch per ReLU element is mispredicted half the time (7% of a step with
// g++), so the selects have SIMD twins (kernels::relu_*, simd.h).
namespace scalar {
namespace {

// r = max(f, 0)
void relu_forward(float* __restrict r, const float* __restrict f, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) r[i] = f[i] > 0.0f ? f[i] : 0.0f;
}

// d *= [f > 0]: ReLU's gradient passes only where the unit was active
void relu_backward(float* __restrict d, const float* __restrict f, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) d[i] = f[i] > 0.0f ? d[i] : 0.0f;
}

}  // namespace
}  // namespace scalar

#if POSENC_SIMD
namespace simd {
namespace {

// The same selects four lanes at a time: g++ keeps a branch per element in
// the scalar loops above even with restrict.
void relu_forward(float* r, const float* f, std::int64_t n) {
    const std::int64_t body = n - n % static_cast<std::int64_t>(kLanes);
    const batch_f zero(0.0f);
    for (std::int64_t i = 0; i < body; i += kLanes) {
        const batch_f x = xsimd::load_unaligned(f + i);
        xsimd::store_unaligned(r + i, xsimd::select(x > zero, x, zero));
    }
    scalar::relu_forward(r + body, f + body, n - body);
}

void relu_backward(float* d, const float* f, std::int64_t n) {
    const std::int64_t body = n - n % static_cast<std::int64_t>(kLanes);
    const batch_f zero(0.0f);
    for (std::int64_t i = 0; i < body; i += kLanes) {
        const batch_f x = xsimd::load_unaligned(f + i);
        xsimd::store_unaligned(d + i, xsimd::select(x > zero, xsimd::load_unaligned(d + i), zero));
    }
    scalar::relu_backward(d + body, f + body, n - body);
}

}  // namespace
}  // namespace simd
#endif

namespace {

// db (n) += column sums of dy (rows, n)
void add_colsum(float* db, const float* dy, std::int64_t rows, std::int64_t n) {
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t j = 0; j < n; ++j) db[j] += dy[r * n + j];
}

}  // namespace

// --- construction -----------------------------------------------------------

std::int64_t Trainer::add_param(const std::string& name, std::int64_t size) {
    const std::int64_t off = offsets_.empty() ? 0 : offsets_.back() + param_info_.back().size;
    param_info_.push_back(ParamInfo{name, size});
    offsets_.push_back(off);
    return off;
}

namespace {

// Every field of c, before anything is allocated: RangeError / TypeError
// naming the field, the rule and the value.
void check_config(const TrainerConfig& c) {
    check_range("layers", c.layers, 1, 4);
    check_range("heads", c.heads, 1, 16);
    check_range("d_model", c.d_model, 4, 256);
    if (c.d_model % c.heads != 0)
        throw RangeError("d_model must be divisible by heads, got d_model " + std::to_string(c.d_model) +
                             " and heads " + std::to_string(c.heads),
                         {"d_model", "heads"}, {double(c.d_model), double(c.heads)});
    if ((c.d_model / c.heads) % 2 != 0)
        throw RangeError("head_dim = d_model / heads must be even (RoPE turns pairs of coordinates), got " +
                             std::to_string(c.d_model / c.heads),
                         {"head_dim", "d_model", "heads"}, {double(c.d_model / c.heads)});
    if (c.ffn != 0 && (c.ffn < 1 || c.ffn > 1024))
        throw RangeError("ffn must be 0 (meaning 4 * d_model) or between 1 and 1024, got " + std::to_string(c.ffn),
                         {"ffn", "d_model"}, {double(c.ffn), 1.0, 1024.0});
    check_range("vocab", c.vocab, 2, 64);
    check_range("train_len", c.train_len, 2, 256);
    check_range("batch", c.batch, 1, 256);
    if (!std::isfinite(c.lr) || !(c.lr > 0) || c.lr > 1)
        throw RangeError("lr must be a finite number in (0, 1], got " + format_number(c.lr), {"lr"}, {c.lr});
    check_named("task", c.task, &train_task_name);
    if (c.task == TrainTask::text && c.vocab != kTextVocab)
        throw RangeError("the text task's vocabulary is its " + std::to_string(kTextVocab) +
                             " characters (train_tasks.h): vocab must be " + std::to_string(kTextVocab) + ", got " +
                             std::to_string(c.vocab),
                         {"vocab"}, {double(c.vocab), double(kTextVocab)});
    check_named("encoding", c.encoding, &train_encoding_name);
    // The largest tensors a step keeps per layer, each under the core's cap,
    // and everything a step keeps under kMaxTrainFloats: a learner raising
    // every slider gets a message, not an out-of-memory abort in the tab.
    const std::int64_t d = c.d_model, ffn = c.ffn ? c.ffn : 4 * c.d_model, rows = c.batch * c.train_len;
    check_elements("attention weights per layer (batch * heads * train_len^2)",
                   c.batch * c.heads * c.train_len * c.train_len, {"train_len"});
    check_elements("feed-forward activations per layer (batch * train_len * ffn)", rows * ffn, {"train_len"});
    const std::int64_t floats =
        c.layers * (rows * (7 * d + 2 * ffn + 4) + c.batch * c.heads * c.train_len * c.train_len) +
        (c.layers + 1) * rows * d + rows * (8 * d + ffn + c.vocab);
    if (floats > kMaxTrainFloats)
        throw RangeError(
            "training would keep " + std::to_string(floats / (1 << 18)) + " MiB of activations, more than the cap of " +
                std::to_string(kMaxTrainFloats / (1 << 18)) + " MiB: reduce batch, train_len, layers, d_model or ffn",
            {"batch", "train_len", "layers", "d_model", "ffn"}, {double(floats), double(kMaxTrainFloats)});
}

// c, once check_config passes: the constructor checks before it keeps anything.
const TrainerConfig& checked(const TrainerConfig& c) {
    check_config(c);
    return c;
}

}  // namespace

Trainer::Trainer(const TrainerConfig& c)
    : cfg_(checked(c)), enc_(train_encoding_spec(c.encoding)), data_rng_(c.seed ^ kTrainDataSalt) {
    if (c.task == TrainTask::text) {
        corpus_ = text_corpus(c.text, c.train_len);
        cfg_.text.clear();  // the ids are what the trainer keeps
        cfg_.text.shrink_to_fit();
    }
    d_ = c.d_model;
    hd_ = c.d_model / c.heads;
    ffn_ = c.ffn ? c.ffn : 4 * c.d_model;
    lay_out_params();
    init_params();
    // every buffer a training step needs, so step() allocates nothing
    const std::int64_t rows = c.batch * c.train_len;
    tokens_.resize(static_cast<std::size_t>(rows));
    targets_.resize(static_cast<std::size_t>(rows));
    history_.reserve(1024);
    reserve(c.batch, c.train_len, true);
    position_tables(c.train_len);
}

// The parameter layout, in the documented order, and the zeroed arrays
// (parameters, gradients, Adam moments) it indexes.
void Trainer::lay_out_params() {
    const TrainerConfig& c = cfg_;
    tok_emb_ = add_param("tok_emb", c.vocab * d_);
    if (enc_.input == Input::learned) pos_emb_ = add_param("pos_emb", c.train_len * d_);
    if (enc_.bias == Bias::t5) t5_ = add_param("t5_table", kT5DefaultBuckets * c.heads);
    for (std::int64_t l = 0; l < c.layers; ++l) {
        const std::string pre = "layers." + std::to_string(l) + ".";
        Layer L{};
        L.ln1_g = add_param(pre + "ln1.weight", d_);
        L.ln1_b = add_param(pre + "ln1.bias", d_);
        // a linear map in -> out: its weight, then its bias, registered in
        // that order (the parameters' order is the buffer's and the fixtures')
        auto linear = [&](const char* w, const char* b, std::int64_t in, std::int64_t out) {
            Linear m{};
            m.w = add_param(pre + w, in * out);
            m.b = add_param(pre + b, out);
            return m;
        };
        L.q = linear("wq", "bq", d_, d_);
        L.k = linear("wk", "bk", d_, d_);
        L.v = linear("wv", "bv", d_, d_);
        L.o = linear("wo", "bo", d_, d_);
        L.ln2_g = add_param(pre + "ln2.weight", d_);
        L.ln2_b = add_param(pre + "ln2.bias", d_);
        L.up = linear("w1", "b1", d_, ffn_);
        L.down = linear("w2", "b2", ffn_, d_);
        layer_.push_back(L);
    }
    lnf_g_ = add_param("ln_f.weight", d_);
    lnf_b_ = add_param("ln_f.bias", d_);
    out_.w = add_param("w_out", d_ * c.vocab);
    out_.b = add_param("b_out", c.vocab);
    const std::int64_t total = offsets_.back() + param_info_.back().size;
    for (auto* v : {&params_, &grads_, &adam_m_, &adam_v_}) v->assign(static_cast<std::size_t>(total), 0.0f);
    for (std::size_t i = 0; i < param_info_.size(); ++i)
        grad_spans_.push_back(GradSpan{grads_.data() + offsets_[i], param_info_[i].size});
}

void Trainer::init_params() {
    TrainRng rng(cfg_.seed);
    for (std::size_t i = 0; i < param_info_.size(); ++i) {
        const std::string& name = param_info_[i].name;
        float* w = params_.data() + offsets_[i];
        const std::int64_t n = param_info_[i].size;
        // LayerNorm: gamma = 1, beta = 0, as nn.LayerNorm; no draws.
        const auto ends_with = [&](const char* s) {
            const std::size_t k = std::strlen(s);
            return name.size() >= k && name.compare(name.size() - k, k, s) == 0;
        };
        if (ends_with(".weight") || ends_with(".bias")) {
            std::fill(w, w + n, ends_with(".weight") ? 1.0f : 0.0f);
            continue;
        }
        // a = 1/sqrt(fan_in) for linear weights and biases (nn.Linear's bound)
        double a = 1.0 / std::sqrt(static_cast<double>(d_));
        if (name == "tok_emb" || name == "pos_emb")
            a = 1.0;
        else if (name == "t5_table")
            a = 0.1;
        else if (ends_with("w2") || ends_with("b2"))
            a = 1.0 / std::sqrt(static_cast<double>(ffn_));
        // w = f32((2u - 1) a), in double
        for (std::int64_t j = 0; j < n; ++j) w[j] = static_cast<float>((2.0 * rng.uniform() - 1.0) * a);
    }
}

std::vector<Trainer::Param> Trainer::parameters() {
    std::vector<Param> out;
    for (std::size_t i = 0; i < param_info_.size(); ++i)
        out.push_back(
            Param{param_info_[i].name, params_.data() + offsets_[i], grads_.data() + offsets_[i], param_info_[i].size});
    return out;
}

// Sizes every activation and scratch buffer for (batch, length). Training
// keeps each layer's activations for backward; inference reuses layer 0's.
void Trainer::reserve(std::int64_t batch, std::int64_t length, bool training) {
    const std::int64_t rows = batch * length, H = cfg_.heads;
    const std::int64_t att = batch * H * length * length;
    xs_.resize(static_cast<std::size_t>(cfg_.layers + 1));
    acts_.resize(static_cast<std::size_t>(cfg_.layers));
    for (auto& x : xs_) grow(x, rows * d_);
    const std::size_t kept = training ? acts_.size() : 1;
    for (std::size_t l = 0; l < kept; ++l) {
        Acts& a = acts_[l];
        for (auto* v : {&a.ln1_out, &a.qh, &a.kh, &a.vh, &a.merged, &a.mid, &a.ln2_out}) grow(*v, rows * d_);
        for (auto* v : {&a.mean1, &a.rstd1, &a.mean2, &a.rstd2}) grow(*v, rows);
        grow(a.ffn_pre, rows * ffn_);
        grow(a.ffn_post, rows * ffn_);
        if (training) grow(a.att, att);
    }
    for (auto* v : {&lnf_out_, &proj_}) grow(*v, rows * d_);
    grow(meanf_, rows);
    grow(rstdf_, rows);
    grow(logits_, rows * cfg_.vocab);
    if (training) {
        for (auto* v : {&d_resid_, &d_normed_, &d_proj_, &dqh_, &dkh_, &dvh_}) grow(*v, rows * d_);
        grow(dff_, rows * ffn_);
        grow(dscore_, length * length);
    }
}

// Positional tables up to `length`, computed once per new longest length.
void Trainer::position_tables(std::int64_t length) {
    if (enc_.input == Input::sinusoidal && length > pe_len_) {
        grow(pe_, length * d_);
        sinusoidal_table(pe_.data(), length, d_, 10000.0, SinCos::Fast);  // speed: the trainer prints no table
        pe_len_ = length;
    }
    if (enc_.rotary && length > rope_len_) {
        // HF Llama's cos/sin cache: inv_i = 1 / base^(2i/dim), theta = f32(f32(m) inv_i).
        // Kept as a table (not rope_apply, which recomputes and allocates per
        // call) because backward turns by the same angles the other way.
        const std::int64_t half = hd_ / 2;
        grow(rope_inv_, half);
        rope_inv_freq(rope_inv_.data(), hd_, 10000.0);
        grow(rope_cos_, length * half);
        grow(rope_sin_, length * half);
        std::vector<float> angle(static_cast<std::size_t>(length * half));  // only when the length grows
        for (std::int64_t m = 0; m < length; ++m)
            for (std::int64_t i = 0; i < half; ++i) angle[m * half + i] = static_cast<float>(m) * rope_inv_[i];
        kernels::sincos(angle.data(), rope_sin_.data(), rope_cos_.data(), static_cast<std::size_t>(length * half));
        rope_len_ = length;
    }
    if (enc_.bias == Bias::t5 && length != t5_len_) {
        grow(t5_buckets_, 2 * length - 1);
        for (std::int64_t t = -(length - 1); t < length; ++t)
            t5_buckets_[t + length - 1] =
                t5_bucket(t, cfg_.task != TrainTask::text, kT5DefaultBuckets, kT5DefaultMaxDistance);
        t5_len_ = length;
    }
}

// x: (rows, dim) in head layout, row r at position r % length. Each pair
// (a, b) = (x_i, x_{i + dim/2}) turns by theta (RoFormer, half convention):
//   forward:  a' = a cos - b sin,  b' = b cos + a sin
//   inverse:  the transpose, rotation by -theta (the backward pass: R is orthogonal)
void Trainer::rope_rotate(float* x, std::int64_t rows, std::int64_t length, bool inverse) const {
    const std::int64_t half = hd_ / 2;
    for (std::int64_t r = 0; r < rows; ++r) {
        float* xr = x + r * hd_;
        const float* cs = rope_cos_.data() + (r % length) * half;
        const float* sn = rope_sin_.data() + (r % length) * half;
        for (std::int64_t i = 0; i < half; ++i) {
            const float a = xr[i], b = xr[i + half], c = cs[i];
            const float s = inverse ? -sn[i] : sn[i];
            xr[i] = a * c - b * s;
            xr[i + half] = b * c + a * s;
        }
    }
}

// --- forward ----------------------------------------------------------------

// x: (rows, in); y: (rows, out); y = x W + b
void Trainer::linear_forward(float* y, const float* x, const Linear& lin, std::int64_t rows, std::int64_t in,
                             std::int64_t out) {
    kernels::gemm_nn(y, x, p(lin.w), rows, in, out, false);
    const float* b = p(lin.b);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t j = 0; j < out; ++j) y[r * out + j] += b[j];
}

// dy: (rows, out); x: (rows, in); dx: (rows, in), overwritten or added to.
//   dx = dy W^T;  dW += x^T dy;  db += colsum(dy)
void Trainer::linear_backward(float* dx, const float* dy, const float* x, const Linear& lin, std::int64_t rows,
                              std::int64_t in, std::int64_t out, bool accumulate) {
    kernels::gemm_nt(dx, dy, p(lin.w), rows, out, in, accumulate);
    kernels::gemm_tn(g(lin.w), x, dy, in, rows, out, true);
    add_colsum(g(lin.b), dy, rows, out);
}

// length in 1..1024, and within a learned table's rows.
void Trainer::check_length(std::int64_t length) const {
    check_range("length", length, 1, 1024);
    if (enc_.input == Input::learned && length > cfg_.train_len)
        throw RangeError("the learned position table has " + std::to_string(cfg_.train_len) +
                             " rows (trained at length " + std::to_string(cfg_.train_len) + "); length " +
                             std::to_string(length) + " needs positions up to " + std::to_string(length - 1) +
                             ", which have no row: a learned table cannot extrapolate",
                         {"length"}, {double(cfg_.train_len), double(length)});  // the rows, then the length
}

void Trainer::check_batch(const std::int32_t* tokens, const std::int32_t* targets, std::int64_t batch,
                          std::int64_t length) const {
    check_range("batch", batch, 1, 256);
    check_length(length);
    if (!tokens || !targets) throw TypeError("tokens and targets must not be null", {"tokens", "targets"});
    check_elements("activations (batch * length * max(ffn, d_model))", batch * length * std::max(ffn_, d_),
                   {"d_model"});
    for (std::int64_t i = 0; i < batch * length; ++i) {
        if (tokens[i] < 0 || tokens[i] >= cfg_.vocab)
            throw RangeError("tokens must lie in 0.." + std::to_string(cfg_.vocab - 1) + ", got " +
                                 std::to_string(tokens[i]) + " at index " + std::to_string(i),
                             {"tokens"}, {double(tokens[i]), 0.0, double(cfg_.vocab - 1), double(i)});
        if (targets[i] < 0 || targets[i] >= cfg_.vocab)
            throw RangeError("targets must lie in 0.." + std::to_string(cfg_.vocab - 1) + ", got " +
                                 std::to_string(targets[i]) + " at index " + std::to_string(i),
                             {"targets"}, {double(targets[i]), 0.0, double(cfg_.vocab - 1), double(i)});
    }
}

// tokens, targets: (batch, L). Returns the mean cross-entropy; `correct`, when
// not null, receives the number of argmax predictions equal to the target.
// training: keep every layer's activations and leave softmax(logits) in
// logits_ for backward.
float Trainer::run_forward(const std::int32_t* tokens, const std::int32_t* targets, std::int64_t batch, std::int64_t L,
                           bool training, std::int64_t* correct) {
    reserve(batch, L, training);
    position_tables(L);
    embed(tokens, batch * L, L);
    AttentionOptions opt;
    opt.causal = cfg_.task == TrainTask::text;
    opt.alibi = enc_.bias == Bias::alibi;
    opt.t5_table = enc_.bias == Bias::t5 ? p(t5_) : nullptr;
    opt.t5_bidirectional = !opt.causal;  // as position_tables' buckets for backward
    opt.t5_num_buckets = kT5DefaultBuckets;
    opt.t5_max_distance = kT5DefaultMaxDistance;
    opt.want_weights = training;
    opt.workspace = &ws_;
    for (std::int64_t l = 0; l < cfg_.layers; ++l) layer_forward(l, acts_[training ? l : 0], batch, L, opt);
    return head_forward(targets, batch * L, training, correct);
}

// x0 = E[tok] (+ P[pos]) into xs_[0]
void Trainer::embed(const std::int32_t* tokens, std::int64_t rows, std::int64_t L) {
    const std::int64_t d = d_;
    float* x = xs_[0].data();
    const float* pos = enc_.input == Input::learned      ? p(pos_emb_)
                       : enc_.input == Input::sinusoidal ? pe_.data()
                                                         : nullptr;
    for (std::int64_t n = 0; n < rows; ++n) {
        const float* e = p(tok_emb_) + tokens[n] * d;
        float* xr = x + n * d;
        if (pos) {
            const float* pr = pos + (n % L) * d;
            for (std::int64_t j = 0; j < d; ++j) xr[j] = e[j] + pr[j];
        } else {
            std::memcpy(xr, e, sizeof(float) * d);
        }
    }
}

// Layer l, xs_[l] -> xs_[l + 1], keeping its activations in a:
//   h = x + Wo MHA(LN1(x)) + bo;  x' = h + W2 relu(W1 LN2(h) + b1) + b2
void Trainer::layer_forward(std::int64_t l, Acts& a, std::int64_t batch, std::int64_t L, const AttentionOptions& opt) {
    const std::int64_t rows = batch * L, H = cfg_.heads, d = d_;
    const Layer& W = layer_[l];
    const float* xin = xs_[l].data();
    float* xout = xs_[l + 1].data();
    // attention: Q, K, V of LN1(x) in head layout (RoPE turns Q and K)
    layer_norm_forward(a.ln1_out.data(), a.mean1.data(), a.rstd1.data(), xin, p(W.ln1_g), p(W.ln1_b), rows, d);
    linear_forward(proj_.data(), a.ln1_out.data(), W.q, rows, d, d);
    split_heads(a.qh.data(), proj_.data(), batch, L, H, hd_);
    linear_forward(proj_.data(), a.ln1_out.data(), W.k, rows, d, d);
    split_heads(a.kh.data(), proj_.data(), batch, L, H, hd_);
    linear_forward(proj_.data(), a.ln1_out.data(), W.v, rows, d, d);
    split_heads(a.vh.data(), proj_.data(), batch, L, H, hd_);
    if (enc_.rotary) {
        rope_rotate(a.qh.data(), batch * H * L, L, false);
        rope_rotate(a.kh.data(), batch * H * L, L, false);
    }
    const std::int64_t per_b = H * L * hd_;
    for (std::int64_t b = 0; b < batch; ++b)
        attention(proj_.data() + b * per_b, opt.want_weights ? a.att.data() + b * H * L * L : nullptr,
                  a.qh.data() + b * per_b, a.kh.data() + b * per_b, a.vh.data() + b * per_b, H, L, hd_, opt);
    merge_heads(a.merged.data(), proj_.data(), batch, L, H, hd_);
    linear_forward(proj_.data(), a.merged.data(), W.o, rows, d, d);
    add_rows(a.mid.data(), xin, proj_.data(), rows * d);
    // feed-forward
    layer_norm_forward(a.ln2_out.data(), a.mean2.data(), a.rstd2.data(), a.mid.data(), p(W.ln2_g), p(W.ln2_b), rows, d);
    linear_forward(a.ffn_pre.data(), a.ln2_out.data(), W.up, rows, d, ffn_);
    kernels::relu_forward(a.ffn_post.data(), a.ffn_pre.data(), rows * ffn_);
    linear_forward(proj_.data(), a.ffn_post.data(), W.down, rows, ffn_, d);
    add_rows(xout, a.mid.data(), proj_.data(), rows * d);
}

// logits = LNf(x) Wout + bout, then loss = mean_n (logsumexp(z_n) - z_n[target])
// with the max subtracted first (log_softmax's stable form); training leaves
// softmax(z) in logits_, correct (if given) counts argmax hits.
float Trainer::head_forward(const std::int32_t* targets, std::int64_t rows, bool training, std::int64_t* correct) {
    const std::int64_t d = d_, V = cfg_.vocab;
    layer_norm_forward(lnf_out_.data(), meanf_.data(), rstdf_.data(), xs_[cfg_.layers].data(), p(lnf_g_), p(lnf_b_),
                       rows, d);
    linear_forward(logits_.data(), lnf_out_.data(), out_, rows, d, V);
    double loss = 0;
    std::int64_t hits = 0;
    for (std::int64_t n = 0; n < rows; ++n) {
        float* z = logits_.data() + n * V;
        std::int64_t arg = 0;
        for (std::int64_t v = 1; v < V; ++v)
            if (z[v] > z[arg]) arg = v;
        hits += arg == targets[n];
        const float m = z[arg];
        float sum = 0;
        for (std::int64_t v = 0; v < V; ++v) sum += std::exp(z[v] - m);
        const float lse = std::log(sum);
        loss += static_cast<double>(lse - (z[targets[n]] - m));
        if (training) {
            const float inv = 1.0f / sum;
            for (std::int64_t v = 0; v < V; ++v) z[v] = std::exp(z[v] - m) * inv;
        }
    }
    if (correct) *correct = hits;
    return static_cast<float>(loss / static_cast<double>(rows));
}

// --- backward ---------------------------------------------------------------

// Every head of one layer through attention_head_backward (T5's table
// gradient included). a.qh, a.kh, a.vh, a.att from the forward; dvh_ holds
// dO on entry (head layout) and dV on exit; dqh_, dkh_ receive dQ, dK.
void Trainer::attention_backward(Acts& a, std::int64_t batch, std::int64_t L) {
    const std::int64_t H = cfg_.heads, hd = hd_, per_head = L * hd;
    const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(hd)));
    for (std::int64_t bh = 0; bh < batch * H; ++bh) {
        const RelBiasGrad t5{t5_ >= 0 ? g(t5_) + bh % H : nullptr, t5_buckets_.data(), H};
        attention_head_backward(dqh_.data() + bh * per_head, dkh_.data() + bh * per_head, dvh_.data() + bh * per_head,
                                dscore_.data(), a.att.data() + bh * L * L, a.qh.data() + bh * per_head,
                                a.kh.data() + bh * per_head, a.vh.data() + bh * per_head, L, hd, scale,
                                t5_ >= 0 ? &t5 : nullptr);
    }
}

// After run_forward(training = true) on the same batch: fills grads_ (added to).
void Trainer::run_backward(const std::int32_t* tokens, std::int64_t batch, std::int64_t L) {
    const std::int64_t rows = batch * L, d = d_, V = cfg_.vocab;
    const float inv_rows = 1.0f / static_cast<float>(rows);
    // targets were consumed by the forward; dlogits = (softmax - onehot) / rows
    float* dz = logits_.data();
    for (std::int64_t n = 0; n < rows; ++n) {
        dz[n * V + targets_back_[n]] -= 1.0f;
        for (std::int64_t v = 0; v < V; ++v) dz[n * V + v] *= inv_rows;
    }
    // the head, then the final LayerNorm; d_resid_ is d loss / d (residual stream)
    linear_backward(d_normed_.data(), dz, lnf_out_.data(), out_, rows, d, V, false);
    layer_norm_backward(d_resid_.data(), g(lnf_g_), g(lnf_b_), d_normed_.data(), xs_[cfg_.layers].data(), meanf_.data(),
                        rstdf_.data(), p(lnf_g_), rows, d, false);
    for (std::int64_t l = cfg_.layers - 1; l >= 0; --l) layer_backward(l, batch, L);
    embed_backward(tokens, rows, L);
}

// Layer l's gradients; d_resid_ holds d loss / d xs_[l + 1] on entry and
// d loss / d xs_[l] on exit.
void Trainer::layer_backward(std::int64_t l, std::int64_t batch, std::int64_t L) {
    const std::int64_t rows = batch * L, H = cfg_.heads, d = d_;
    const Layer& W = layer_[l];
    Acts& a = acts_[l];
    // feed-forward: dr = dx W2^T; df = dr * [f > 0]; da2 = df W1^T; dh = dx + LN2'(da2)
    linear_backward(dff_.data(), d_resid_.data(), a.ffn_post.data(), W.down, rows, ffn_, d, false);
    kernels::relu_backward(dff_.data(), a.ffn_pre.data(), rows * ffn_);
    linear_backward(d_normed_.data(), dff_.data(), a.ln2_out.data(), W.up, rows, d, ffn_, false);
    layer_norm_backward(d_resid_.data(), g(W.ln2_g), g(W.ln2_b), d_normed_.data(), a.mid.data(), a.mean2.data(),
                        a.rstd2.data(), p(W.ln2_g), rows, d, true);
    // attention: dc = dh Wo^T, into heads as dO
    linear_backward(d_proj_.data(), d_resid_.data(), a.merged.data(), W.o, rows, d, d, false);
    split_heads(dvh_.data(), d_proj_.data(), batch, L, H, hd_);
    attention_backward(a, batch, L);
    if (enc_.rotary) {
        rope_rotate(dqh_.data(), batch * H * L, L, true);
        rope_rotate(dkh_.data(), batch * H * L, L, true);
    }
    // da1 = dq Wq^T + dk Wk^T + dv Wv^T; dx += LN1'(da1)
    merge_heads(d_proj_.data(), dqh_.data(), batch, L, H, hd_);
    linear_backward(d_normed_.data(), d_proj_.data(), a.ln1_out.data(), W.q, rows, d, d, false);
    merge_heads(d_proj_.data(), dkh_.data(), batch, L, H, hd_);
    linear_backward(d_normed_.data(), d_proj_.data(), a.ln1_out.data(), W.k, rows, d, d, true);
    merge_heads(d_proj_.data(), dvh_.data(), batch, L, H, hd_);
    linear_backward(d_normed_.data(), d_proj_.data(), a.ln1_out.data(), W.v, rows, d, d, true);
    layer_norm_backward(d_resid_.data(), g(W.ln1_g), g(W.ln1_b), d_normed_.data(), xs_[l].data(), a.mean1.data(),
                        a.rstd1.data(), p(W.ln1_g), rows, d, true);
}

// The embeddings: dE[tok] += dx; dP[pos] += dx (learned)
void Trainer::embed_backward(const std::int32_t* tokens, std::int64_t rows, std::int64_t L) {
    const std::int64_t d = d_;
    for (std::int64_t n = 0; n < rows; ++n) {
        const float* dr = d_resid_.data() + n * d;
        float* de = g(tok_emb_) + tokens[n] * d;
        for (std::int64_t j = 0; j < d; ++j) de[j] += dr[j];
        if (pos_emb_ >= 0) {
            float* dp = g(pos_emb_) + (n % L) * d;
            for (std::int64_t j = 0; j < d; ++j) dp[j] += dr[j];
        }
    }
}

// --- public entry points ----------------------------------------------------

float Trainer::forward_backward(const std::int32_t* tokens, const std::int32_t* targets, std::int64_t batch,
                                std::int64_t length) {
    check_batch(tokens, targets, batch, length);
    check_elements("attention weights per layer (batch * heads * length^2)", batch * cfg_.heads * length * length);
    std::fill(grads_.begin(), grads_.end(), 0.0f);
    targets_back_ = targets;
    const float loss = run_forward(tokens, targets, batch, length, true, nullptr);
    run_backward(tokens, batch, length);
    return loss;
}

float Trainer::forward(const std::int32_t* tokens, const std::int32_t* targets, std::int64_t batch,
                       std::int64_t length) {
    check_batch(tokens, targets, batch, length);
    return run_forward(tokens, targets, batch, length, false, nullptr);
}

float Trainer::step(std::int64_t n) {
    check_range("n (steps)", n, 1, 100000);
    eval_.active = false;  // the weights change: an evaluation in progress would mix two models
    const std::int64_t B = cfg_.batch, L = cfg_.train_len;
    AdamConfig adam;
    adam.lr = cfg_.lr;
    if (history_.capacity() < history_.size() + static_cast<std::size_t>(n))
        history_.reserve(history_.size() + static_cast<std::size_t>(n));
    float loss = 0;
    for (std::int64_t s = 0; s < n; ++s) {
        // pass 1: a fresh batch from the training stream; forward and backward
        draw_batch(tokens_.data(), targets_.data(), B, L, false, data_rng_);
        std::fill(grads_.begin(), grads_.end(), 0.0f);
        targets_back_ = targets_.data();
        loss = run_forward(tokens_.data(), targets_.data(), B, L, true, nullptr);
        run_backward(tokens_.data(), B, L);
        // pass 2: clip the global gradient norm to 1, then Adam (step t = steps + 1)
        clip_grad_norm(grad_spans_.data(), grad_spans_.size(), kClipNorm);
        ++steps_;
        kernels::adam_update(params_.data(), grads_.data(), adam_m_.data(), adam_v_.data(),
                             static_cast<std::int64_t>(params_.size()), steps_, adam);
        history_.push_back(loss);
    }
    return loss;
}

void Trainer::draw_batch(std::int32_t* tokens, std::int32_t* targets, std::int64_t batch, std::int64_t length,
                         bool validation, TrainRng& rng) const {
    if (cfg_.task == TrainTask::text)
        text_batch(tokens, targets, corpus_, validation, batch, length, rng);
    else
        train_task_batch(tokens, targets, cfg_.task, batch, length, cfg_.vocab, rng);
}

double Trainer::evaluate(std::int64_t length, std::int64_t samples) {
    return evaluate_full(length, samples).accuracy;
}

Evaluation Trainer::evaluate_full(std::int64_t length, std::int64_t samples) {
    evaluate_start(length, samples);
    evaluate_more(4096);
    return evaluate_result();
}

void Trainer::evaluate_start(std::int64_t length, std::int64_t samples) {
    eval_.active = false;
    check_length(length);
    check_range("samples", samples, 1, 4096);
    // Chunks of at most a training batch's rows (one sequence if longer), so
    // evaluation reuses the training buffers.
    const std::int64_t chunk =
        std::max<std::int64_t>(1, std::min<std::int64_t>(samples, cfg_.batch * cfg_.train_len / length));
    grow(eval_tokens_, chunk * length);
    grow(eval_targets_, chunk * length);
    eval_ = EvalRun{true, length, samples, chunk, 0, 0, 0.0, TrainRng(cfg_.seed ^ kEvalDataSalt)};
}

bool Trainer::evaluate_more(std::int64_t chunks) {
    check_range("chunks", chunks, 1, 4096);
    if (!eval_.active)
        throw TypeError("no evaluation in progress: call evaluateStart first (a step ends one in progress)",
                        {"chunks"});
    EvalRun& e = eval_;
    for (std::int64_t k = 0; k < chunks && e.done < e.samples; ++k, e.done += e.chunk) {
        const std::int64_t b = std::min(e.chunk, e.samples - e.done);
        draw_batch(eval_tokens_.data(), eval_targets_.data(), b, e.length, true, e.rng);
        std::int64_t c = 0;
        e.loss += static_cast<double>(run_forward(eval_tokens_.data(), eval_targets_.data(), b, e.length, false, &c)) *
                  static_cast<double>(b * e.length);
        e.hits += c;
    }
    return e.done >= e.samples;
}

Evaluation Trainer::evaluate_result() const {
    if (!eval_.active || eval_.done < eval_.samples)
        throw TypeError("the evaluation is not finished: call evaluateMore until it returns true");
    const auto tokens = static_cast<double>(eval_.samples * eval_.length);
    return Evaluation{static_cast<double>(eval_.hits) / tokens, eval_.loss / tokens};
}

}  // namespace posenc
