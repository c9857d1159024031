// A grow-only buffer in the compute core's heap, for a widget that calls the
// core on every update with arrays too large to copy each time (a 1024 x 1024
// table). take(pe, n) gives a HeapArray of exactly n values, a subarray of
// one allocation that grows by doubling and never shrinks, so the core reads
// and writes it in place. Free it when the widget leaves the page.
export class HeapBuffer {
  #pe = null;
  #heap = null;

  /**
   * n values of pe's heap (their contents are whatever the last user left;
   * when it grows, the first `keep` values come along).
   */
  take(pe, n, keep = 0) {
    if (!this.#heap || this.#heap.length < n || this.#pe !== pe) {
      const same = this.#pe === pe && this.#heap;
      const grown = pe.allocate(Math.min(Math.max(n, same ? 2 * this.#heap.length : 0), pe.limits.maxElements));
      if (same && keep) grown.array.set(this.#heap.array.subarray(0, keep));
      this.free();
      this.#heap = grown;
      this.#pe = pe;
    }
    return this.#heap.subarray(0, n);
  }

  free() {
    this.#heap?.free();
    this.#heap = null;
  }
}
