// One call into the core (every array function of web/posenc.js goes
// through it): the array arguments checked (kind, length, build, caps)
// before anything is allocated, placed in the scratch area or used in place,
// copied in, the binding invoked, the results copied out.
import { typeError, rangeError, unwrap } from './check.js';
import { TYPES, HeapArray, heapAddress, live, sharesBytes, toTyped } from './heap.js';

// a typed-array view of `length` values of `type` at byte `addr` of core's heap (valid until the heap grows)
const heapView = (core, type, addr, length) => new TYPES[type].Array(core[TYPES[type].heap].buffer, addr, length);

/**
 * Runs one core function of the build `core`. `inputs` (arg()s) are copied
 * into `scratch` (or used in place when HeapArrays), `outputs` (output()s)
 * get scratch space (or the caller's `out`); `invoke(addresses...)` calls
 * the binding and returns what it returns (an Error is thrown, unwrap()).
 * No array may hold more than `maxElements` values. Returns the outputs as
 * fresh typed arrays (or the caller's `out` objects).
 */
export function callCore(core, scratch, maxElements, fn, inputs, outputs, invoke, { aliasOk = false } = {}) {
  const args = [...inputs, ...outputs];
  // An out may not share bytes with an input (the same array, a subarray of
  // it, a HeapArray and its .array view): used in place, it would be written
  // while the kernel reads it (plain arrays follow the same rule, so a result
  // never depends on where the arrays live). Nor may two outs share bytes.
  // Compared by bytes, not by object: q.subarray(0) is another object over q's memory.
  outputs.forEach((a, j) => {
    if (a.value === undefined) return;
    const input = aliasOk ? undefined : inputs.find((b) => sharesBytes(a.value, b.value));
    if (input)
      throw typeError(
        `${fn}: out for ${a.name} must not be one of the inputs or share memory with one (${input.name})`,
      );
    const other = outputs.slice(0, j).find((b) => b.value !== undefined && sharesBytes(a.value, b.value));
    if (other) throw typeError(`${fn}: out for ${a.name} must not share memory with out for ${other.name}`);
  });
  // pass 1: check kinds, lengths and caps before anything is allocated
  const plain = inputs.map((a) => {
    if (!(a.value instanceof HeapArray)) return toTyped(a);
    const s = live(a.value, fn);
    if (s.core !== core)
      throw typeError(`${fn}: ${a.name} is a HeapArray of the other build; allocate it with this one`);
    if (s.type !== a.type)
      throw typeError(`${fn}: ${a.name} must be a ${TYPES[a.type].Array.name}, not a HeapArray of type '${s.type}'`);
    if (s.length !== a.length) {
      throw rangeError(
        `${fn}: ${a.name} must hold ${a.lengthText} = ${a.length} values, got a HeapArray of ${s.length}`,
      );
    }
    return null;
  });
  for (const a of inputs) {
    if (a.length > maxElements) {
      throw rangeError(`${fn}: ${a.name} has ${a.length} values, more than the cap of ${maxElements}`);
    }
  }
  for (const a of outputs) {
    if (a.length > maxElements) {
      throw rangeError(`${fn}: ${a.name} would hold ${a.length} values, more than the cap of ${maxElements}`);
    }
    if (a.value instanceof HeapArray) {
      const s = live(a.value, fn);
      if (s.core !== core) throw typeError(`${fn}: out is a HeapArray of the other build; allocate it with this one`);
      if (s.type !== a.type || s.length !== a.length) {
        throw rangeError(
          `${fn}: out for ${a.name} must be a HeapArray of ${a.length} '${a.type}' values, got ${s.length} '${s.type}'`,
        );
      }
    }
  }
  const wantsScratch = args.map((a, i) => (i < inputs.length ? plain[i] !== null : !(a.value instanceof HeapArray)));
  // pass 2: scratch addresses for everything not already in the heap
  const sizes = args.map((a, i) => (wantsScratch[i] ? a.length * TYPES[a.type].Array.BYTES_PER_ELEMENT : 0));
  const reserved = scratch.reserve(
    fn,
    sizes.filter((_, i) => wantsScratch[i]),
  );
  let next = 0;
  const addr = args.map((a, i) => (wantsScratch[i] ? reserved[next++] : heapAddress(a.value)));
  // pass 3: copy plain inputs in (one bulk set each), after any growth
  inputs.forEach((a, i) => {
    if (plain[i]) heapView(core, a.type, addr[i], a.length).set(plain[i]);
  });
  unwrap(fn, invoke(...addr));
  // pass 4: results out (one bulk copy each), unless written in place
  return outputs.map((a, j) => {
    const i = inputs.length + j;
    if (a.value instanceof HeapArray) return a.value;
    const view = heapView(core, a.type, addr[i], a.length);
    if (a.value) {
      a.value.set(view);
      return a.value;
    }
    return view.slice();
  });
}
