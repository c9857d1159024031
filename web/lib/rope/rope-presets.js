// Published Hugging Face config.json files, cut to the fields that decide
// RoPE, for <rope-config-lab>. Each names where its numbers come from; none
// is made up. tests/fixtures/make_fixtures.py reads this list (through node)
// and records every preset's frequencies and attention factor as Hugging
// Face's modeling_rope_utils computes them with PyTorch.

// microsoft/Phi-3-mini-128k-instruct, rope_scaling (the current revision):
// 48 factors each, one per pair of the 96-dimensional heads.
const PHI3_LONG = [
  1.0700000524520874, 1.1200000047683716, 1.149999976158142, 1.4199999570846558, 1.5699999332427979, 1.7999999523162842,
  2.129999876022339, 2.129999876022339, 3.009999990463257, 5.910000324249268, 6.950000286102295, 9.070000648498535,
  9.930000305175781, 10.710000038146973, 11.130000114440918, 14.609999656677246, 15.409998893737793, 19.809999465942383,
  37.279998779296875, 38.279998779296875, 38.599998474121094, 40.12000274658203, 46.20000457763672, 50.940006256103516,
  53.66000747680664, 54.9373893737793, 56.89738845825195, 57.28738784790039, 59.98738479614258, 60.86738586425781,
  60.887386322021484, 61.71739196777344, 62.91739273071289, 62.957393646240234, 63.41739273071289, 63.8173942565918,
  63.83739471435547, 63.897396087646484, 63.93739700317383, 64.06739807128906, 64.11434936523438, 64.12435150146484,
  64.15435028076172, 64.19435119628906, 64.24435424804688, 64.57435607910156, 64.69000244140625, 64.76000213623047,
];
const PHI3_SHORT = [
  1.1, 1.1, 1.1, 1.3000000000000003, 1.3500000000000003, 1.3500000000000003, 1.4000000000000004, 1.5500000000000005,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
  2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.0500000000000007,
  2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007,
  2.1000000000000005, 2.1000000000000005, 2.1500000000000004, 2.25, 2.25, 2.25, 2.25, 2.25, 2.3999999999999995,
  2.4499999999999993, 2.499999999999999, 2.6999999999999984, 2.6999999999999984, 2.7499999999999982, 2.799999999999998,
  2.8999999999999977, 3.049999999999997,
];

/**
 * [{ id, name, source, config, longTraining? }]: config is the config.json
 * subset, as published. longTraining, for a model whose maker says it went
 * on training at lengths beyond the config's original length: { length (the
 * longest, in tokens, as the config counts them), text (what the maker
 * says, with where) }.
 */
export const ROPE_PRESETS = [
  {
    id: 'llama-2-7b',
    name: 'Llama 2 7B',
    source: 'meta-llama/Llama-2-7b-hf config.json (no rope_theta: Hugging Face’s default 10,000); Touvron et al. 2023',
    config: { hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 4096, rope_scaling: null },
  },
  {
    id: 'code-llama-7b',
    name: 'Code Llama 7B',
    source: 'codellama/CodeLlama-7b-hf config.json: base raised to 1,000,000, fine-tuned on 16,384-token sequences',
    config: {
      hidden_size: 4096,
      num_attention_heads: 32,
      max_position_embeddings: 16384,
      rope_theta: 1000000,
      rope_scaling: null,
    },
  },
  {
    id: 'mistral-7b-v0.3',
    name: 'Mistral 7B v0.3',
    source: 'mistralai/Mistral-7B-v0.3 config.json',
    config: {
      hidden_size: 4096,
      num_attention_heads: 32,
      max_position_embeddings: 32768,
      rope_theta: 1000000,
      rope_scaling: null,
    },
  },
  {
    id: 'pythia-1.4b',
    name: 'Pythia 1.4B (GPT-NeoX)',
    source: 'EleutherAI/pythia-1.4b config.json: rotary_pct 0.25, so 32 of each head’s 128 dimensions rotate',
    config: {
      hidden_size: 2048,
      num_attention_heads: 16,
      max_position_embeddings: 2048,
      rotary_pct: 0.25,
      rotary_emb_base: 10000,
    },
  },
  {
    id: 'llama-3.1-8b',
    name: 'Llama 3.1 8B',
    source: 'meta-llama/Llama-3.1-8B config.json (rope_type llama3)',
    config: {
      hidden_size: 4096,
      num_attention_heads: 32,
      max_position_embeddings: 131072,
      rope_theta: 500000,
      rope_scaling: {
        factor: 8,
        low_freq_factor: 1,
        high_freq_factor: 4,
        original_max_position_embeddings: 8192,
        rope_type: 'llama3',
      },
    },
    // Grattafiori et al. 2024 (arXiv 2407.21783), §3.4: "We use similar
    // recipes to pre-train the 8B and 70B models"; §3.4.2: "In Llama 3 405B
    // pre-training, we increased context length gradually in six stages,
    // starting from the original 8K context window and ending in the final
    // 128K context window. This long-context pre-training stage was
    // performed using approximately 800B training tokens." §3.4.3: the final
    // 40M tokens keep "a context length of 128K tokens". Which RoPE
    // frequencies those stages used is not among what is quoted here, and
    // the lab says nothing about it.
    longTraining: {
      length: 131072,
      text: 'Meta went on pre-training Llama 3.1 on sequences lengthened step by step to 128K tokens (Llama 3 paper, Grattafiori et al. 2024, §3.4.2: six stages from 8K for the 405B, about 800B tokens; similar recipes for the 8B and 70B).',
    },
  },
  {
    id: 'qwen2.5-7b-yarn',
    name: 'Qwen2.5 7B Instruct + YaRN ×4',
    source:
      'Qwen/Qwen2.5-7B-Instruct config.json, with the rope_scaling its model card says to add for texts over 32,768 tokens',
    config: {
      hidden_size: 3584,
      num_attention_heads: 28,
      max_position_embeddings: 32768,
      rope_theta: 1000000,
      rope_scaling: { factor: 4, original_max_position_embeddings: 32768, type: 'yarn' },
    },
  },
  {
    id: 'phi-3-mini-128k',
    name: 'Phi-3 mini 128k (LongRoPE)',
    source:
      'microsoft/Phi-3-mini-128k-instruct config.json (the lists as copied in Microsoft’s MIT-licensed long-context evaluation script; GGUF conversions record the same attention factor, 1.1902)',
    config: {
      hidden_size: 3072,
      num_attention_heads: 32,
      max_position_embeddings: 131072,
      original_max_position_embeddings: 4096,
      rope_theta: 10000,
      rope_scaling: { long_factor: PHI3_LONG, short_factor: PHI3_SHORT, type: 'longrope' },
    },
  },
  {
    id: 'llama-7b-pi-16x',
    name: 'LLaMA 7B + position interpolation ×16',
    source:
      'Chen et al. 2023: LLaMA 7B (2,048 tokens, base 10,000) extended to 32,768 by position interpolation, written as Hugging Face’s linear rope_scaling',
    config: {
      hidden_size: 4096,
      num_attention_heads: 32,
      max_position_embeddings: 2048,
      rope_scaling: { type: 'linear', factor: 16 },
    },
  },
  {
    id: 'llama-2-7b-dynamic',
    name: 'Llama 2 7B + dynamic NTK ×2',
    source:
      'Llama 2 7B’s config.json with Hugging Face’s dynamic rope_scaling at factor 2 (the setting of HF’s dynamic-NTK examples; no checkpoint ships it)',
    config: {
      hidden_size: 4096,
      num_attention_heads: 32,
      max_position_embeddings: 4096,
      rope_scaling: { type: 'dynamic', factor: 2 },
    },
  },
];

/** The preset with this id, or undefined. */
export function ropePreset(id) {
  return ROPE_PRESETS.find((p) => p.id === id);
}
