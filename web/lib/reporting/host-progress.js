// Progress that a host keeps for the learner (SCORM's suspend_data, the cmi5
// AU's own state document): read once at launch into the page's store, so
// every widget reads and writes it as it would localStorage, and written back
// as one text after each change. The learner's seed and the attempt travel
// with it, so the numbers a learner was given and a reset they made hold in
// the next launch too.
import {
  useStorage,
  memoryStorage,
  loadProgress,
  progressKey,
  learnerSeedKey,
  attemptKey,
  attempt,
} from './progress.js';
import { encodeProgress, decodeProgress } from './suspend-data.js';

// stored: the host's text ('' for a first launch); knownIds: the package's
// questions (progress of others is dropped); limit: the host's size limit in
// characters. Returns what the adapter needs afterwards.
export function useHostProgress(stored, { knownIds, limit }) {
  const restored = decodeProgress(stored, { knownIds });
  const memory = new Map([[progressKey, JSON.stringify(restored.progress)]]);
  if (restored.learnerSeed !== null) memory.set(learnerSeedKey, String(restored.learnerSeed));
  if (restored.attempt > 1) memory.set(attemptKey, String(restored.attempt));
  useStorage(memoryStorage(memory));
  return {
    // whether the launch found answers to restore
    restored: memory.get(progressKey) !== '{}',
    // the text to give the host now (the seed as the page holds it: a reset renews it)
    encode(progress = loadProgress()) {
      const seed = Number(memory.get(learnerSeedKey));
      return encodeProgress(progress, Number.isInteger(seed) ? seed : null, { limit, attempt: attempt() });
    },
  };
}
