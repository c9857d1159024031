// Arrays in the wasm heap: HeapArray (the caller's, used in place), the
// grow-only scratch area every call copies plain arrays through, and the
// shapes of a call's array arguments (arg, output) with their checks.
import { describe, typeError, rangeError } from './check.js';

export const TYPES = {
  f32: { Array: Float32Array, heap: 'HEAPF32' },
  f64: { Array: Float64Array, heap: 'HEAPF64' },
  i32: { Array: Int32Array, heap: 'HEAP32' },
};
const align = (bytes) => (bytes + 15) & ~15;
const heapOwners = new WeakMap(); // HeapArray -> { core, ptr, type, freed }
const freeOnCollect =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((held) => releaseHeapArray(held)) : null;

/**
 * An array that lives in the wasm heap of one loaded build. Passing it to a
 * function (as an input, or as `out`) costs no copy. `array` is a view that
 * is valid until the next call into the module (memory growth replaces the
 * heap's buffer), so take it again after each call. Free it when done (it is
 * also freed when garbage-collected).
 */
export class HeapArray {
  get [Symbol.toStringTag]() {
    return 'HeapArray';
  }

  constructor(token, core, type, length, root = null, at = 0) {
    if (token !== heapOwners) throw typeError('HeapArray: create one with pe.allocate(length)');
    if (root) {
      // a view of part of another HeapArray (subarray): no memory of its own;
      // it holds on to `root` so the memory is not collected under it
      heapOwners.set(this, { core, ptr: at, type, length, freed: false, owner: heapOwners.get(root), root });
      Object.freeze(this);
      return;
    }
    const bytes = Math.max(align(length * TYPES[type].Array.BYTES_PER_ELEMENT), 16);
    const ptr = core._malloc(bytes);
    if (!ptr) throw rangeError(`allocate: not enough memory for ${length} values`);
    const held = heapArraysHeld(core);
    held.count++;
    held.bytes += bytes;
    const state = { core, ptr, type, length, freed: false, owner: null, bytes };
    heapOwners.set(this, state);
    freeOnCollect?.register(this, { core, ptr, bytes }, state);
    Object.freeze(this);
  }

  /** Number of elements. */
  get length() {
    return heapOwners.get(this).length;
  }

  /** 'f32' or 'i32'. */
  get type() {
    return heapOwners.get(this).type;
  }

  /** A typed-array view of the elements (take it again after any call into the module). */
  get array() {
    const s = live(this, 'array');
    return new TYPES[s.type].Array(s.core[TYPES[s.type].heap].buffer, s.ptr, s.length);
  }

  /** Copies `values` (an array-like of the same length) in. */
  set(values) {
    if (!values || typeof values.length !== 'number' || values.length !== this.length) {
      throw rangeError(`HeapArray.set: expected ${this.length} values, got ${describe(values)}`);
    }
    this.array.set(values);
    return this;
  }

  /** A copy of the elements as an ordinary typed array. */
  toArray() {
    return this.array.slice();
  }

  /**
   * Elements [begin, end) as a HeapArray sharing this one's memory, like
   * TypedArray.subarray: no copy, so a grow-only buffer can be passed to a
   * function that wants an exact length. It is usable while this one is.
   */
  subarray(begin = 0, end = this.length) {
    const s = live(this, 'subarray');
    if (!Number.isInteger(begin) || !Number.isInteger(end) || begin < 0 || end < begin || end > s.length) {
      throw rangeError(
        `HeapArray.subarray: expected 0 <= begin <= end <= ${s.length}, got ${describe(begin)} and ${describe(end)}`,
      );
    }
    return new HeapArray(
      heapOwners,
      s.core,
      s.type,
      end - begin,
      s.root ?? this,
      s.ptr + begin * TYPES[s.type].Array.BYTES_PER_ELEMENT,
    );
  }

  /**
   * Releases the memory; the HeapArray (and every subarray of it) cannot be
   * used afterwards. Safe to call twice. On a subarray it only retires that view.
   */
  free() {
    const s = heapOwners.get(this);
    if (s.freed) return;
    s.freed = true;
    if (s.owner) return;
    freeOnCollect?.unregister(s);
    releaseHeapArray(s);
  }
}

// Live HeapArrays per loaded build (memoryStats reports them).
const heapArrayTotals = new WeakMap(); // core -> { count, bytes }
export function heapArraysHeld(core) {
  let held = heapArrayTotals.get(core);
  if (!held) heapArrayTotals.set(core, (held = { count: 0, bytes: 0 }));
  return held;
}
function releaseHeapArray({ core, ptr, bytes }) {
  const held = heapArraysHeld(core);
  held.count--;
  held.bytes -= bytes;
  core._free(ptr);
}

export function live(heapArray, fn) {
  const s = heapOwners.get(heapArray);
  if (s.freed || s.owner?.freed) throw typeError(`${fn}: this HeapArray has been freed`);
  return s;
}

// Grow-only scratch space in the heap, reused by every call of one instance.
export class Scratch {
  #core;
  #ptr = 0;
  #bytes = 0;

  constructor(core) {
    this.#core = core;
  }

  get bytes() {
    return this.#bytes;
  }

  // Addresses for blocks of the given byte sizes, 16-byte aligned.
  reserve(fn, sizes) {
    const total = sizes.reduce((sum, b) => sum + align(b), 0);
    if (total > this.#bytes) {
      // Grow geometrically (up to 256 MiB at a time) so a slider dragged
      // upwards does not reallocate on every step.
      const wanted = Math.max(total, Math.min(this.#bytes * 2, this.#bytes + (1 << 28)), 1 << 16);
      if (this.#ptr) this.#core._free(this.#ptr);
      this.#ptr = this.#core._malloc(wanted);
      this.#bytes = wanted;
      if (!this.#ptr) {
        this.#ptr = this.#core._malloc(total);
        this.#bytes = total;
      }
      if (!this.#ptr) {
        this.#bytes = 0;
        throw rangeError(`${fn}: not enough memory for this request`);
      }
    }
    let next = this.#ptr;
    return sizes.map((b) => {
      const at = next;
      next += align(b);
      return at;
    });
  }
}

// Shape of one array argument of a call: where it comes from (a JS array to
// copy in, a HeapArray to use in place, or nothing: an output) and how long.
export function arg(fn, name, value, type, length, lengthText) {
  return { fn, name, value, type, length, lengthText };
}

/** A new HeapArray of `length` `type` values in `core`'s heap (pe.allocate). */
export function allocateHeapArray(core, type, length) {
  return new HeapArray(heapOwners, core, type, length);
}

/** Where a HeapArray's values start in its heap. */
export const heapAddress = (heapArray) => heapOwners.get(heapArray).ptr;

/**
 * The bytes an array argument occupies: { buffer, start, end } ([start, end)
 * of `buffer`), or null for a plain Array (always copied). A HeapArray's
 * bytes are those of its build's heap (so a subarray, or the typed-array
 * view `.array`, names the same bytes as the HeapArray itself).
 */
export function byteRange(value) {
  if (value instanceof HeapArray) {
    const s = heapOwners.get(value);
    const { Array: Type, heap } = TYPES[s.type];
    return { buffer: s.core[heap].buffer, start: s.ptr, end: s.ptr + s.length * Type.BYTES_PER_ELEMENT };
  }
  if (ArrayBuffer.isView(value))
    return { buffer: value.buffer, start: value.byteOffset, end: value.byteOffset + value.byteLength };
  return null;
}

/** Whether two arguments' values share any byte (byteRange); empty ones share none. */
export function sharesBytes(a, b) {
  const x = byteRange(a);
  const y = byteRange(b);
  return (
    !!x && !!y && x.buffer === y.buffer && x.start < x.end && y.start < y.end && x.start < y.end && y.start < x.end
  );
}

// An output argument: `out` may be a HeapArray, a typed array of the right
// type and length (filled in), or undefined (a fresh array is returned).
export function output(fn, name, out, type, length, lengthText = String(length)) {
  if (out !== undefined && !(out instanceof HeapArray)) {
    const { Array: Type } = TYPES[type];
    if (!(out instanceof Type))
      throw typeError(`${fn}: out must be a ${Type.name} or a HeapArray, got ${describe(out)}`);
    if (out.length !== length)
      throw rangeError(`${fn}: out must hold ${lengthText} = ${length} values, got ${out.length}`);
  }
  return arg(fn, name, out, type, length, lengthText);
}

// A plain input as the typed array the core reads, checked for kind and length.
export function toTyped(a) {
  const { fn, name, value: v, type } = a;
  const { Array: Type } = TYPES[type];
  let out;
  if (v instanceof Type) out = v;
  else if (ArrayBuffer.isView(v) && !(v instanceof DataView)) out = Type.from(v);
  else if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      if (typeof v[i] !== 'number') throw typeError(`${fn}: ${name}[${i}] must be a number, got ${describe(v[i])}`);
    }
    out = Type.from(v);
  } else {
    throw typeError(`${fn}: ${name} must be a ${Type.name}, a HeapArray or an array of numbers, got ${describe(v)}`);
  }
  if (a.length !== undefined && out.length !== a.length) {
    throw rangeError(`${fn}: ${name} must hold ${a.lengthText} = ${a.length} values, got ${out.length}`);
  }
  return out;
}
