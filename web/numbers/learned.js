// Numbers quoted in lessons/positional-encoding/03-learned.md: sizes of
// published position tables (rows x width, from the papers' configurations).
const count = (n) => n.toLocaleString('en-US');

export default {
  'learned-bert-base-params': () => count(512 * 768),
  'learned-bert-large-params': () => count(512 * 1024),
  'learned-gpt2-small-params': () => count(1024 * 768),
  'learned-gpt2-xl-params': () => count(1024 * 1600),
  'learned-gpt3-175b-params': () => count(2048 * 12288),
  // T5-base: 32 relative-distance buckets x 12 heads, per stack
  'learned-t5-base-bias-params': () => count(32 * 12),
};
