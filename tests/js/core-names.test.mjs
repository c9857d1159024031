// One list per enumeration: the core's name tables (cpp/, check.h's
// name_of functions, reported as buildInfo().names, RoPE scaling's types as
// buildInfo().scalingTypes) are the lists, and every
// list of the same names in JavaScript or TypeScript is held to them here:
// the API's TRAIN_TASKS and TRAIN_ENCODINGS (also checked at load, by
// web/core/build-info.js), the literal types of web/posenc.d.ts (read with
// TypeScript's own checker), the permutation experiment's encodings and
// labels, and parseRopeConfig's Hugging Face rope types. A name added to a
// table and not to a list (or the other way) fails one of these. T5's
// defaults are written once too (t5_bias.h): the page's copies, which show
// before any core loads, are held to them last.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { instantiate } from '../../web/core/load.js';
import { readBuildInfo } from '../../web/core/build-info.js';
import { loadPosenc, TRAIN_TASKS, TRAIN_ENCODINGS } from '../../web/posenc.js';
import { ENCODINGS, ENCODING_LABELS } from '../../web/lib/permutation/permutation-experiment.js';
import { ROPE_TYPES } from '../../web/lib/rope/rope-config.js';
import relativeBiasT5 from '../../web/samples/relative-bias-t5.js';
import { widgetClasses } from '../../scripts/build/bundles.mjs';

const DTS = fileURLToPath(new URL('../../web/posenc.d.ts', import.meta.url));

// The exported declarations of posenc.d.ts as TypeScript resolves them.
function declarations() {
  const program = ts.createProgram([DTS], { strict: true, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(DTS)));
  const symbol = (name) => {
    const s = exports.find((e) => e.name === name);
    assert.ok(s, `posenc.d.ts exports no ${name}`);
    return s;
  };
  const members = (type) => (type.isUnion() ? type.types : [type]);
  return {
    // a union of string literals, as a sorted list of its strings
    union: (name) =>
      members(checker.getDeclaredTypeOfSymbol(symbol(name)))
        .map((t) => t.value)
        .sort(),
    // a readonly tuple constant's elements, in order
    tuple: (name) => checker.getTypeArguments(checker.getTypeOfSymbol(symbol(name))).map((t) => t.value),
    // the literal `type` of each member of a discriminated union, sorted
    discriminants: (name) =>
      members(checker.getDeclaredTypeOfSymbol(symbol(name)))
        .map((t) => checker.getTypeOfPropertyOfType(t, 'type').value)
        .sort(),
  };
}

const sorted = (list) => [...list].sort();

describe("the core's name tables and every other list of the same names", () => {
  let names, scalingTypes, trainerNames, dts;
  before(async () => {
    ({ names, scalingTypes } = (await instantiate('simd')).buildInfo());
    trainerNames = (await instantiate('train-scalar')).buildInfo().names;
    dts = declarations();
  });

  it('each build reports its tables; the lesson builds have no trainer tables', () => {
    assert.deepEqual(names.ropeConventions, ['half', 'interleaved']);
    assert.equal(names.trainTasks, undefined);
    assert.deepEqual(trainerNames.ropeConventions, names.ropeConventions);
  });

  it("TRAIN_TASKS and TRAIN_ENCODINGS are the trainer's tables, in order", () => {
    assert.deepEqual([...TRAIN_TASKS], trainerNames.trainTasks);
    assert.deepEqual([...TRAIN_ENCODINGS], trainerNames.trainEncodings);
  });

  it("posenc.d.ts's literal types list exactly the core's names", () => {
    assert.deepEqual(dts.tuple('TRAIN_TASKS'), trainerNames.trainTasks);
    assert.deepEqual(dts.tuple('TRAIN_ENCODINGS'), trainerNames.trainEncodings);
    assert.deepEqual(dts.union('TrainTask'), sorted(trainerNames.trainTasks));
    assert.deepEqual(dts.union('TrainEncoding'), sorted(trainerNames.trainEncodings));
    assert.deepEqual(dts.union('RopeConvention'), sorted(names.ropeConventions));
    // scalingTypes: the core's table of them but 'none' (the API spells none as null)
    assert.deepEqual(dts.discriminants('RopeScaling'), sorted(Object.keys(scalingTypes)));
  });

  it("the permutation experiment compares the trainer's encodings, each labelled", () => {
    assert.equal(ENCODINGS, TRAIN_ENCODINGS);
    assert.deepEqual(Object.keys(ENCODING_LABELS), [...ENCODINGS]);
  });

  it("parseRopeConfig's rope types are Hugging Face's 'default' and the core's scaling types", () => {
    assert.deepEqual(sorted(ROPE_TYPES), sorted(['default', ...Object.keys(scalingTypes)]));
  });

  it('a build whose table differs from an API list refuses to load, naming both', async () => {
    // No build with another table exists to load, so the real trainer
    // build's report is read with one name added, as a grown table would be.
    const core = await instantiate('train-simd');
    const grown = {
      buildInfo() {
        const info = core.buildInfo();
        info.names.trainEncodings.push('nope');
        return info;
      },
    };
    assert.throws(
      () => readBuildInfo(grown),
      /names trainEncodings none, sinusoidal, learned, rope, alibi, t5, nope, but TRAIN_ENCODINGS .* lists none, sinusoidal, learned, rope, alibi, t5: rebuild/,
    );
    assert.equal(readBuildInfo(core).names.trainEncodings.length, TRAIN_ENCODINGS.length);
  });

  it("T5's defaults shown before the core loads are the core's (pe.defaults.t5)", async () => {
    const { t5 } = (await loadPosenc({ simd: false })).defaults;
    assert.deepEqual(t5, { bidirectional: true, numBuckets: 32, maxDistance: 128 });
    const { widgets } = await widgetClasses();
    const { params } = widgets.find((w) => w.tag === 't5-buckets').cls;
    assert.equal(params['num-buckets'].default, t5.numBuckets, '<t5-buckets num-buckets>');
    assert.equal(params['max-distance'].default, t5.maxDistance, '<t5-buckets max-distance>');
    assert.equal(relativeBiasT5.params.num_buckets.default, t5.numBuckets, 'the relative-bias-t5 sample');
    assert.equal(relativeBiasT5.params.max_distance.default, t5.maxDistance, 'the relative-bias-t5 sample');
  });

  it("a name the core's table lacks, given to the core directly, is refused naming the field and the table", async () => {
    // (posenc.js checks names first; this is the value objects' own guard, bindings.cpp's set_name)
    const core = await instantiate('train-scalar');
    const { trainer } = core.buildInfo().defaults;
    for (const [field, list] of [
      ['encoding', trainerNames.trainEncodings],
      ['task', trainerNames.trainTasks],
    ]) {
      const handle = new core.TrainerHandle();
      const refused = handle.init({ ...trainer, [field]: 'nope' });
      handle.delete();
      assert.ok(refused instanceof TypeError, String(refused));
      assert.equal(refused.message, `${field} must be one of ${list.map((n) => `'${n}'`).join(', ')}`);
      assert.deepEqual(refused.names, [field]);
    }
  });

  it("the API's errors list the core's names", async () => {
    const pe = await loadPosenc({ simd: false });
    assert.throws(
      () => pe.ropeApply([1, 2], 1, 2, { convention: 'neox' }),
      (e) =>
        e instanceof TypeError &&
        e.kind === 'TypeError' &&
        e.message ===
          `ropeApply: unknown convention: convention must be one of ${names.ropeConventions
            .map((n) => `'${n}'`)
            .join(', ')}, got the string "neox"`,
    );
  });
});
