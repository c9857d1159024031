// A grow-only buffer in the compute core's heap, for a widget that calls the
// core on every update with arrays too large to copy each time (a 1024 x 1024
// table). take(pe, n) gives a HeapArray of exactly n values, a subarray of
// one allocation that grows by doubling and never shrinks, so the core reads
// and writes it in place. Free it when the widget leaves the page.
export class HeapBuffer {
  #pe = null;
  #heap = null;

  /** n values of pe's heap (their contents are whatever the last user left). */
  take(pe, n) {
    if (!this.#heap || this.#heap.length < n || this.#pe !== pe) {
      const grown = Math.max(n, this.#pe === pe ? 2 * (this.#heap?.length ?? 0) : 0);
      this.free();
      this.#heap = pe.allocate(Math.min(grown, pe.limits.maxElements));
      this.#pe = pe;
    }
    return this.#heap.subarray(0, n);
  }

  free() {
    this.#heap?.free();
    this.#heap = null;
  }
}
