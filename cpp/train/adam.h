// Adam (Kingma & Ba 2015) exactly as torch.optim.Adam (PyTorch 1.13,
// single-tensor path, no weight decay, no amsgrad), and global gradient-norm
// clipping as torch.nn.utils.clip_grad_norm_.
//
// Adam, step t = 1, 2, ... (float32 tensors, scalars rounded to float32 as
// torch's CPU kernels do when they meet a Python float):
//   m = m * b1 + (1 - b1) * g                    exp_avg.mul_(b1).add_(g, alpha=1-b1)
//   v = v * b2 + (1 - b2) * g * g                exp_avg_sq.mul_(b2).addcmul_(g, g, value=1-b2)
//   bc1 = 1 - b1^t;  bc2 = 1 - b2^t              (double)
//   step_size = lr / bc1                          (double)
//   denom = sqrt(v) / sqrt(bc2) + eps
//   p = p + (-step_size) * m / denom             param.addcdiv_(m, denom, value=-step_size)
//
// Clipping (Pascanu et al. 2013):
//   total = sqrt(sum over tensors of ||g||^2);  coef = max_norm / (total + 1e-6)
//   g *= coef  only when coef < 1 (torch multiplies by min(coef, 1))
#pragma once
#include <cstddef>
#include <cstdint>

#include "simd.h"

namespace posenc {

struct AdamConfig {
    double lr = 1e-3;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
};

// p, g, m, v: (n), m and v zero before step 1. step: the step number t >= 1
// (torch increments state['step'] before using it).
// Throws RangeError for n < 0, step < 1, lr not finite and > 0, betas
// outside [0, 1), eps not finite and > 0.
void adam_update(float* p, const float* g, float* m, float* v, std::int64_t n, std::int64_t step,
                 const AdamConfig& config);

// The same update without the checks (the trainer's inner loop takes
// kernels::adam_update, simd.h): scalar::adam_update and, in SIMD builds,
// simd::adam_update. The twins agree bit for bit (elementwise, same
// operations in the same order).
namespace scalar {
void adam_update(float* p, const float* g, float* m, float* v, std::int64_t n, std::int64_t step,
                 const AdamConfig& config);
}  // namespace scalar
#if POSENC_SIMD
namespace simd {
void adam_update(float* p, const float* g, float* m, float* v, std::int64_t n, std::int64_t step,
                 const AdamConfig& config);
}  // namespace simd
#endif

// One gradient tensor for clipping.
struct GradSpan {
    float* grad;
    std::int64_t size;
};

// Returns the total norm (as float32, what torch returns); scales every
// gradient by max_norm / (total + 1e-6) when that is below 1. Norms are
// summed in double. Throws RangeError for max_norm not finite and > 0.
float clip_grad_norm(const GradSpan* grads, std::size_t count, double max_norm);

}  // namespace posenc
