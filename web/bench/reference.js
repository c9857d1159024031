// <bench-reference step="0|1">: the widget benchmark's yardstick, not a
// widget. Every update does the same work on every run and every machine
// state: a fixed JavaScript loop (LOOP rounds of arithmetic), then new text in
// each cell of a ROWS x COLS table, one of two fixed sets, which the
// benchmark's forced layout lays out. Nothing in it depends on the core or on
// the data.
//
// What it is for: with the CPU throttled, Chromium's slowdown on this 2-core
// machine is not a constant 4x (docs/perf-journal.md, fourth pass, "How Chromium slows the
// CPU"). The reference runs last in each run and says what the throttle did
// to a task of known size then: its 4x median over its 1x median is the
// slowdown applied at the end of that run, and its 4x p95 what noise gives
// a task of that size (a stall earlier in the run it cannot see). It has the
// interface the benchmark drives: a shadow root, updateNow(), data-ready.
const LOOP = 60000;
const ROWS = 6;
const COLS = 5;

// the two texts of cell k: same length, different digits
const cellText = (k, step) => `${(0.1234 + 0.0371 * k + 0.5 * step).toFixed(4)} · ${(k * 7 + step * 3) % 10}`;

class BenchReference extends HTMLElement {
  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const table = document.createElement('table');
    this.cells = [];
    for (let r = 0; r < ROWS; r++) {
      const tr = table.insertRow();
      for (let c = 0; c < COLS; c++) this.cells.push(tr.insertCell());
    }
    const note = document.createElement('p');
    note.textContent = 'Benchmark reference: fixed work per update.';
    root.append(note, table);
    this.sum = 0;
  }

  connectedCallback() {
    this.toggleAttribute('data-ready', true);
  }

  /** The fixed work: the loop, then the cells' text for the current step. */
  async updateNow() {
    const step = this.getAttribute('step') === '1' ? 1 : 0;
    let s = 0;
    for (let i = 0; i < LOOP; i++) s += Math.sqrt(i ^ (s & 1023));
    this.sum = s; // kept, so the loop cannot be optimised away
    this.cells.forEach((cell, k) => (cell.textContent = cellText(k, step)));
  }
}

if (!customElements.get('bench-reference')) customElements.define('bench-reference', BenchReference);
