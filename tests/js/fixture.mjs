// Reads the golden fixtures written by tests/fixtures/make_fixtures.py (format
// in tests/fixtures/README.md; the C++ twin is tests/fixture.h).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

function value(token) {
  if (token === 'inf') return Infinity;
  if (token === '-inf') return -Infinity;
  if (token === 'nan') return NaN;
  return Number(token);
}

export function loadCase(file) {
  // The tensor header is one line; its values follow on the next lines.
  const lines = readFileSync(path.join(fixtureDir, file), 'utf8').split('\n');
  const c = { file, op: '', params: {}, tensors: {} };
  let pending = null;
  let buffer = [];
  const flush = () => {
    if (pending) {
      pending.values = buffer.map(value);
      if (pending.values.length !== pending.count) {
        throw new Error(
          `${file}: tensor ${pending.name} has ${pending.values.length} values, expected ${pending.count}`,
        );
      }
      c.tensors[pending.name] = { dtype: pending.dtype, shape: pending.shape, values: pending.values };
    }
    pending = null;
    buffer = [];
  };
  for (const line of lines) {
    if (line.startsWith('#') || !line.trim()) continue;
    const [w, ...rest] = line.trim().split(/\s+/);
    if (w === 'op') c.op = rest[0];
    else if (w === 'param') c.params[rest[0]] = rest[1];
    else if (w === 'tensor') {
      flush();
      const [name, dtype, ...dims] = rest;
      const shape = dims.map(Number);
      pending = { name, dtype, shape, count: shape.reduce((a, b) => a * b, 1) };
    } else if (w === 'end') break;
    else if (pending) buffer.push(w, ...rest);
    else throw new Error(`${file}: unexpected line ${line.slice(0, 40)}`);
  }
  flush();
  return c;
}

export function allCases(op) {
  const index = readFileSync(path.join(fixtureDir, 'index.txt'), 'utf8').split(/\s+/).filter(Boolean);
  return index.map(loadCase).filter((c) => c.op === op);
}

/** Largest |a-b|; NaN when NaN-ness or infinities disagree. */
export function maxAbsDiff(a, b) {
  if (a.length !== b.length) return NaN;
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (Number.isNaN(x) || Number.isNaN(y)) {
      if (Number.isNaN(x) !== Number.isNaN(y)) return NaN;
      continue;
    }
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      if (x !== y) return NaN;
      continue;
    }
    worst = Math.max(worst, Math.abs(x - y));
  }
  return worst;
}
