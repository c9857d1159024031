// What a build of the core says about itself (bindings.cpp's buildInfo()):
// whether it is the SIMD build and holds the trainer, its size caps, the
// defaults the API fills in (T5's, RoPE scaling's, the trainer's), RoPE
// scaling's schema, and `names`: every enumeration that crosses the boundary
// (by name, never by number), listed from the core's own tables. The lists
// the API must know before any build has loaded (TRAIN_TASKS and
// TRAIN_ENCODINGS: the training lab draws its controls from them) are
// checked against those tables here, so a build whose table gained a name
// the API lacks fails to load, saying which.
import { TRAIN_TASKS, TRAIN_ENCODINGS } from './trainer.js';

// the API's own lists, by the name buildInfo().names gives their table
const API_LISTS = { trainTasks: ['TRAIN_TASKS', TRAIN_TASKS], trainEncodings: ['TRAIN_ENCODINGS', TRAIN_ENCODINGS] };

const deepFreeze = (o) => {
  // (a typed array's elements cannot be frozen: LongRoPE's empty factor lists stay as they are)
  for (const v of Object.values(o)) if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) deepFreeze(v);
  return Object.freeze(o);
};

/**
 * buildInfo() of an instantiated core, frozen, with the trainer's defaults
 * as the API takes them (without the text task's corpus, which has none).
 * Throws an Error when an API list differs from the core's table.
 */
export function readBuildInfo(core) {
  const info = core.buildInfo();
  for (const [table, [name, list]] of Object.entries(API_LISTS)) {
    const names = info.names[table];
    if (names === undefined) continue; // a build without the trainer
    if (names.length !== list.length || names.some((n, i) => n !== list[i])) {
      throw new Error(
        `this build of the core names ${table} ${names.join(', ')}, but ${name} (web/core/trainer.js) lists ` +
          `${list.join(', ')}: rebuild the core, or make the two lists agree`,
      );
    }
  }
  if (info.defaults.trainer) {
    const { text: _, ...trainer } = info.defaults.trainer;
    info.defaults.trainer = trainer;
  }
  return deepFreeze(info);
}
