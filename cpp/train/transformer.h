// A tiny encoder-only Transformer trained in the core by its own forward and
// backward passes and Adam: the lesson's "train short, test long"
// experiment, where a learner trains it live and sees which positional
// encodings let a Transformer learn order and extrapolate.
//
// Model (pre-LN encoder, bidirectional, float32; Vaswani et al. 2017 with
// the pre-LN placement of Xiong et al. 2020):
//   x0 = E[tok] (+ P[pos]: sinusoidal table or learned table)
//   per layer:  h = x + Wo MHA(LN1(x)) + bo
//               x = h + W2 relu(W1 LN2(h) + b1) + b2
//   logits = LNf(x) Wout + bout;  loss = mean cross-entropy over batch * L
//   MHA head: S = Q K^T / sqrt(head_dim) + rel(i, j);  O = softmax(S) V
//     task text: causal, S[i, j] = -inf for j > i (a language model sees only
//     the characters before it); every other task sees the whole sequence
//     none / sinusoidal / learned: rel = 0
//     rope:  Q, K rotated (half convention, base 10000) in every head and layer
//     alibi: rel = -m_h |i - j|, m = alibi_slopes(heads)   (symmetric)
//     t5:    rel = T[bucket(j - i), h], one learned (32, heads) table shared
//            by every layer; max_distance 128, bidirectional buckets
//            (unidirectional for the causal text task, as T5's decoder)
//
// Activations live as (batch * L, d) row-major, so every linear layer is one
// gemm; weights are stored (in, out): y = x W + b (torch's Linear.weight is
// the transpose).
//
// Parameters, in this order (the order of parameters(), of the init draws
// and of tests/fixtures/make_trainer.py):
//   tok_emb                 (vocab, d)        a = 1
//   pos_emb   [learned]     (train_len, d)    a = 1   (the scale of the sinusoidal
//                                                      table, so the comparison is fair)
//   t5_table  [t5]          (32, heads)       a = 0.1
//   per layer l, prefix "layers.l.":
//     ln1.weight, ln1.bias  (d)               1 and 0, no draws
//     wq, bq, wk, bk, wv, bv, wo, bo          (d, d), (d)    a = 1/sqrt(d)
//     ln2.weight, ln2.bias  (d)               1 and 0, no draws
//     w1, b1                (d, ffn), (ffn)   a = 1/sqrt(d)
//     w2, b2                (ffn, d), (d)     a = 1/sqrt(ffn)
//   ln_f.weight, ln_f.bias  (d)               1 and 0, no draws
//   w_out, b_out            (d, vocab), (vocab)  a = 1/sqrt(d)
// Each drawn value, element by element in storage (row-major) order from one
// TrainRng seeded with `seed`:  w = f32((2u - 1) * a), computed in double,
// u = uniform(). a = 1/sqrt(fan_in) is nn.Linear's default bound for both
// weight and bias; uniform only, so Python replays it bit for bit.
//
// Random streams (TrainRng, train_tasks.h), all from config.seed:
//   init:       TrainRng(seed)
//   training:   TrainRng(seed ^ kTrainDataSalt), one batch per step
//   evaluation: TrainRng(seed ^ kEvalDataSalt), restarted by every evaluate()
// (the text task draws window starts from the same streams, text_batch).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "adam.h"
#include "attention.h"
#include "train_tasks.h"

namespace posenc {

enum class TrainEncoding { none, sinusoidal, learned, rope, alibi, t5 };

// What an encoding changes in the model, as the formulas above say. The
// table of them (kEncodings in transformer.cpp, one row per encoding, in
// TrainEncoding's order) is the encodings' one list: their names, and the
// only place the trainer tells them apart: it reads its row, never which
// encoding it has.
struct TrainEncodingSpec {
    enum class Input { none, sinusoidal, learned };  // a table added to the token embeddings
    enum class Bias { none, alibi, t5 };             // a bias added to the attention scores
    TrainEncoding encoding;
    const char* name;
    Input input;
    bool rotary;  // RoPE turns Q and K (and backward turns their gradients back)
    Bias bias;
};

// An encoding's row; throws TypeError for a value the table does not name.
const TrainEncodingSpec& train_encoding_spec(TrainEncoding encoding);
// An encoding's name; nullptr past the last one (check.h's name tables).
const char* train_encoding_name(TrainEncoding encoding);
// Parses a name of train_encoding_name; throws TypeError naming the bad
// value and the allowed ones.
TrainEncoding train_encoding(const char* name);

constexpr std::uint64_t kTrainDataSalt = 0xD1B54A32D192ED03ull;
constexpr std::uint64_t kEvalDataSalt = 0x8CB92BA72F3D8DD7ull;
constexpr double kClipNorm = 1.0;
// Everything a training step keeps (activations, attention weights,
// scratch), in floats: 256 MiB.
constexpr std::int64_t kMaxTrainFloats = std::int64_t{1} << 26;

struct TrainerConfig {
    TrainTask task = TrainTask::reverse;
    TrainEncoding encoding = TrainEncoding::rope;
    std::int64_t layers = 2;      // 1..4
    std::int64_t d_model = 64;    // 4..256, divisible by heads, head_dim even
    std::int64_t heads = 4;       // 1..16
    std::int64_t ffn = 0;         // 0: 4 * d_model; else 1..1024
    std::int64_t vocab = 10;      // 2..64
    std::int64_t train_len = 16;  // 2..256
    std::int64_t batch = 32;      // 1..256
    double lr = 1e-3;             // finite, in (0, 1]
    std::uint64_t seed = 1;
    std::string text;  // task text: the corpus (UTF-8, text_tokens); vocab must be
                       // kTextVocab. Other tasks ignore it.
};

// What evaluate_full measures over the same sequences.
struct Evaluation {
    double accuracy;  // share of tokens whose argmax is the target, in [0, 1]
    double loss;      // mean cross-entropy per token, in nats
};

class Trainer {
public:
    // Validates every field (RangeError / TypeError naming the field, the
    // rule and the value), allocates everything a training step needs and
    // draws the initial parameters.
    explicit Trainer(const TrainerConfig& config);

    // Runs n training steps (n in 1..100000): draw a batch, forward,
    // backward, clip the gradient norm to 1, Adam. Returns the last loss.
    float step(std::int64_t n);

    // Token accuracy in [0, 1] over `samples` fresh sequences of `length`
    // (length 1..1024, samples 1..4096), drawn from the evaluation stream,
    // restarted on each call: the same trainer state gives the same answer.
    // A learned table asked for length > train_len throws RangeError.
    // The text task draws windows of the held-out tenth of its corpus.
    double evaluate(std::int64_t length, std::int64_t samples);
    // The same sequences, with the mean loss as well (validation loss).
    Evaluation evaluate_full(std::int64_t length, std::int64_t samples);
    // evaluate_full a few chunks at a time, so a caller on a page's thread can
    // yield between them: evaluate_start checks the request (as evaluate_full
    // does) and begins; evaluate_more runs up to `chunks` chunks (1..4096) of
    // at most a training batch's rows and says whether it is done;
    // evaluate_result gives what evaluate_full gives, bit for bit (the same
    // chunks in the same order). A step or another evaluation abandons one in
    // progress; evaluate_more and evaluate_result without one throw.
    void evaluate_start(std::int64_t length, std::int64_t samples);
    bool evaluate_more(std::int64_t chunks);
    Evaluation evaluate_result() const;
    // The corpus of the text task (empty ids otherwise).
    const TextCorpus& corpus() const { return corpus_; }

    const std::vector<float>& loss_history() const { return history_; }
    std::int64_t steps_taken() const { return steps_; }
    const TrainerConfig& config() const { return cfg_; }

    // tokens, targets: (batch, length), values in 0..vocab-1; batch 1..256,
    // length 1..1024. Returns the mean cross-entropy; forward_backward also
    // overwrites every gradient (parameters()[i].grad) with d loss / d param.
    float forward_backward(const std::int32_t* tokens, const std::int32_t* targets, std::int64_t batch,
                           std::int64_t length);
    float forward(const std::int32_t* tokens, const std::int32_t* targets, std::int64_t batch, std::int64_t length);

    struct Param {
        std::string name;
        float* value;
        float* grad;
        std::int64_t size;
    };
    // In the documented order; pointers stay valid for the trainer's life.
    std::vector<Param> parameters();

private:
    struct Linear {
        std::int64_t w, b;  // offsets into params_ / grads_
    };
    struct Layer {
        std::int64_t ln1_g, ln1_b, ln2_g, ln2_b;
        Linear q, k, v, o, up, down;
    };
    // One layer's saved activations, rows = batch * L.
    struct Acts {
        std::vector<float> ln1_out, mean1, rstd1;  // LN1 out (rows, d), stats (rows)
        std::vector<float> qh, kh, vh;             // (batch, heads, L, head_dim), after RoPE
        std::vector<float> att;                    // (batch, heads, L, L) softmax weights
        std::vector<float> merged;                 // (rows, d) heads merged
        std::vector<float> mid;                    // (rows, d) residual stream after attention
        std::vector<float> ln2_out, mean2, rstd2;  // LN2
        std::vector<float> ffn_pre, ffn_post;      // (rows, ffn) before and after the ReLU
    };

    float* p(std::int64_t off) { return params_.data() + off; }
    float* g(std::int64_t off) { return grads_.data() + off; }
    std::int64_t add_param(const std::string& name, std::int64_t size);
    void init_params();
    void check_length(std::int64_t length) const;
    void check_batch(const std::int32_t* tokens, const std::int32_t* targets, std::int64_t batch,
                     std::int64_t length) const;
    void reserve(std::int64_t batch, std::int64_t length, bool training);
    void position_tables(std::int64_t length);
    void linear_forward(float* y, const float* x, const Linear& lin, std::int64_t rows, std::int64_t in,
                        std::int64_t out);
    void linear_backward(float* dx, const float* dy, const float* x, const Linear& lin, std::int64_t rows,
                         std::int64_t in, std::int64_t out, bool accumulate);
    void lay_out_params();
    float run_forward(const std::int32_t* tokens, const std::int32_t* targets, std::int64_t batch, std::int64_t length,
                      bool training, std::int64_t* correct);
    void embed(const std::int32_t* tokens, std::int64_t rows, std::int64_t length);
    void layer_forward(std::int64_t layer, Acts& a, std::int64_t batch, std::int64_t length,
                       const AttentionOptions& options);
    float head_forward(const std::int32_t* targets, std::int64_t rows, bool training, std::int64_t* correct);
    void run_backward(const std::int32_t* tokens, std::int64_t batch, std::int64_t length);
    void layer_backward(std::int64_t layer, std::int64_t batch, std::int64_t length);
    void attention_backward(Acts& a, std::int64_t batch, std::int64_t length);
    void embed_backward(const std::int32_t* tokens, std::int64_t rows, std::int64_t length);
    void rope_rotate(float* x, std::int64_t rows, std::int64_t length, bool inverse) const;

    TrainerConfig cfg_;
    const TrainEncodingSpec& enc_;  // what cfg_.encoding changes in the model
    std::int64_t d_ = 0, ffn_ = 0, hd_ = 0;
    std::int64_t steps_ = 0;
    std::vector<float> history_;

    // parameters, gradients and Adam moments, one flat array each
    std::vector<float> params_, grads_, adam_m_, adam_v_;
    struct ParamInfo {
        std::string name;
        std::int64_t size;
    };
    std::vector<ParamInfo> param_info_;  // each tensor's name and size, in order
    std::vector<std::int64_t> offsets_;  // where each tensor starts in params_ / grads_
    std::int64_t tok_emb_ = 0, pos_emb_ = -1, t5_ = -1, lnf_g_ = 0, lnf_b_ = 0;
    Linear out_{};
    std::vector<Layer> layer_;
    std::vector<GradSpan> grad_spans_;

    // activations and scratch (grow-only)
    std::vector<std::vector<float>> xs_;  // layers + 1 residual streams (rows, d)
    std::vector<Acts> acts_;
    std::vector<float> lnf_out_, meanf_, rstdf_, logits_;  // final LN (rows, d), logits (rows, vocab)
    std::vector<float> proj_;  // (rows, d) a projection's output, before it is split or added
    // backward: d loss / d the residual stream, / d a LayerNorm's output, / d proj_
    std::vector<float> d_resid_, d_normed_, d_proj_;
    std::vector<float> dqh_, dkh_, dvh_, dff_, dscore_;

    // positional tables (grow with the longest length seen)
    std::vector<float> pe_;                              // sinusoidal (pe_len_, d)
    std::vector<float> rope_cos_, rope_sin_, rope_inv_;  // (rope_len_, head_dim / 2)
    std::int64_t pe_len_ = 0, rope_len_ = 0;
    std::vector<std::int32_t> t5_buckets_;  // (2 L - 1): bucket of offset j - i
    std::int64_t t5_len_ = 0;
    AttentionWorkspace ws_;

    TrainRng data_rng_;
    TextCorpus corpus_;  // task text only
    void draw_batch(std::int32_t* tokens, std::int32_t* targets, std::int64_t batch, std::int64_t length,
                    bool validation, TrainRng& rng) const;
    std::vector<std::int32_t> tokens_, targets_;  // (batch, train_len) of a step
    std::vector<std::int32_t> eval_tokens_, eval_targets_;
    // the evaluation in progress (evaluate_start .. evaluate_result)
    struct EvalRun {
        bool active = false;
        std::int64_t length = 0, samples = 0, chunk = 0, done = 0, hits = 0;
        double loss = 0;  // summed over tokens
        TrainRng rng{0};
    };
    EvalRun eval_;
    const std::int32_t* targets_back_ = nullptr;  // the batch run_backward differentiates
};

}  // namespace posenc
