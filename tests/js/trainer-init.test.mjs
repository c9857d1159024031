// pe.createTrainer when the core's TrainerHandle.init throws (a trap in the
// module, or Embind refusing a config field a future core adds), rather than
// returning an Error value: the handle it made is deleted, and the memory
// init had already taken comes back. Init never throws through the public
// API today, so the real trainer build is registered here (registerEmbeddedBuild,
// as scripts/export/export.mjs does) with its init made to throw after doing its
// real work; a file of its own, since that registration holds for the process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadPosenc, registerEmbeddedBuild } from '../../web/posenc.js';
import createModule from '../../web/wasm/posenc-train-simd.js';

const wasmBinary = readFileSync(new URL('../../web/wasm/posenc-train-simd.wasm', import.meta.url));
let failNext = false;
registerEmbeddedBuild(
  'train-simd',
  async (options) => {
    const core = await createModule(options);
    const init = core.TrainerHandle.prototype.init;
    core.TrainerHandle.prototype.init = function (config) {
      const result = init.call(this, config);
      if (!failNext) return result;
      failNext = false;
      throw new WebAssembly.RuntimeError('unreachable (made to throw by this test)');
    };
    return core;
  },
  wasmBinary,
);

test('createTrainer deletes its handle when init throws, and the module keeps working', async () => {
  const pe = await loadPosenc({ simd: true, trainer: true });
  const options = { dModel: 32, heads: 4, trainLen: 8, batch: 8 };
  // a first step keeps a workspace for the module's life: taken before counting
  const warm = pe.createTrainer(options);
  warm.step(1);
  warm.delete();
  const start = pe.memoryStats();
  failNext = true;
  assert.throws(() => pe.createTrainer(options), WebAssembly.RuntimeError);
  assert.equal(failNext, false, 'init ran and threw');
  assert.equal(pe.memoryStats().allocatedBytes, start.allocatedBytes, 'the memory init took is given back');
  assert.equal(pe.memoryStats().jsHandles, start.jsHandles);
  const t = pe.createTrainer(options);
  assert.ok(Number.isFinite(t.step(1)));
  t.delete();
  assert.equal(pe.memoryStats().allocatedBytes, start.allocatedBytes);
});
