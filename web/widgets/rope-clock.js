// <rope-clock>: RoPE as clocks. Each frequency pair i of a d_model-wide
// vector is one dial; a word at seat p turns that dial's hand to the angle
// p·θ_i (θ_i from the core's ropeInvFreq). Two words, two hands: the angle
// between them is (n − m)·θ_i, and swapping the words flips its sign.
import { PeElement, define, css, h } from '../lib/pe-element.js';
import { fixed, exponential } from '../lib/pyformat.js';

const TAU = 2 * Math.PI;
const DIAL = 168; // dial drawing size (CSS px)

// angle wrapped to (−π, π]
function wrapPi(a) {
  let r = a - TAU * Math.floor((a + Math.PI) / TAU);
  if (r <= -Math.PI) r += TAU;
  return r;
}
const mod2pi = (a) => a - TAU * Math.floor(a / TAU);
const signed = (x, digits = 4) => (x > 0 ? '+' : x < 0 ? '−' : '') + fmt(Math.abs(x), digits);
function fmt(x, digits = 4) {
  if (x !== 0 && Math.abs(x) < 10 ** -(digits - 1)) return exponential(x, 2);
  return fixed(x, digits);
}
const deg = (a) => `${a > 0 ? '+' : a < 0 ? '−' : ''}${fixed(Math.abs((a * 180) / Math.PI), 2)}°`;
const norm = (w) => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
const short = (w) => (w.length > 9 ? `${w.slice(0, 8)}…` : w);

class RopeClock extends PeElement {
  static tag = 'rope-clock';
  static params = {
    sentence: {
      type: 'string', default: 'the dog bit the man', maxLength: 300, size: 26, label: 'sentence',
      pattern: /^\s*\S+(\s+\S+){0,63}\s*$/, patternMessage: 'must be 1 to 64 words separated by spaces',
    },
    first: { type: 'string', default: 'dog', maxLength: 40, size: 8, pattern: /^\S+$/, patternMessage: 'must be one word', label: 'word 1' },
    second: { type: 'string', default: 'man', maxLength: 40, size: 8, pattern: /^\S+$/, patternMessage: 'must be one word', label: 'word 2' },
    'd-model': { type: 'int', default: 8, min: 2, max: 64, even: true, label: 'd_model' },
    base: { type: 'float', default: 10000, min: 2, max: 1e6, control: 'number', label: 'base' },
  };

  static styles = css`
    .seats { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0; padding: 0; list-style: none; }
    .seats li { border: 1px solid var(--pe-border); border-radius: 6px; padding: 1px 7px; font-size: .9em; background: var(--pe-panel); }
    .seats li small { color: var(--pe-muted); margin-left: 4px; font-family: var(--pe-mono); }
    .seats li.a { border: 2px solid var(--pe-pos); }
    .seats li.b { border: 2px dashed var(--pe-neg); }
    .swap-row { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; margin: 6px 0; }
    .dials { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 10px; margin: 8px 0; }
    figure { margin: 0; border: 1px solid var(--pe-border); border-radius: 8px; padding: 6px; background: var(--pe-panel); }
    figure svg { margin: 0 auto; overflow: visible; width: 100%; height: auto; max-width: 190px; }
    figcaption { font-size: .8em; font-family: var(--pe-mono); line-height: 1.35; text-align: center; }
    figcaption .flip { color: var(--pe-muted); }
    .face { fill: var(--pe-bg); stroke: var(--pe-border); stroke-width: 1.5; }
    .tick { stroke: var(--pe-muted); stroke-width: 1; }
    .hand-a { stroke: var(--pe-pos); stroke-width: 3; stroke-linecap: round; }
    .hand-b { stroke: var(--pe-neg); stroke-width: 3; stroke-dasharray: 5 3; }
    .tip-a { fill: var(--pe-pos); }
    .tip-b { fill: var(--pe-neg); }
    .arc { stroke: var(--pe-fg); stroke-width: 1.5; fill: none; }
    .arrow { fill: var(--pe-fg); }
    .hub { fill: var(--pe-fg); }
    text { font: 11px system-ui, sans-serif; fill: var(--pe-fg); }
    text.lab-a { fill: var(--pe-pos); font-weight: 700; }
    text.lab-b { fill: var(--pe-neg); font-weight: 700; }
    text.axis { fill: var(--pe-muted); font-size: 9px; }
    .key { font-size: .88em; color: var(--pe-muted); }
    .summary { font-size: .93em; }
  `;

  build(root) {
    this.seats = h('ul', { class: 'seats', 'aria-label': 'Seats of the sentence' });
    this.swapButton = h('button', { type: 'button' }, 'Swap the two words');
    this.swapButton.addEventListener('click', () => this._swap());
    this.swapText = h('span', { class: 'key' });
    this.summary = h('p', { class: 'summary', 'aria-live': 'polite' });
    this.dials = h('div', { class: 'dials' });
    this.table = this.tableAlternative();
    root.append(
      h('h3', {}, 'RoPE as clock dials: one dial per frequency pair'),
      h('p', { class: 'hint' }, 'Each word turns every dial’s hand to seat × θᵢ. Press “Swap the two words” and watch the angle between the hands keep its size but change sign; fast dials (top left) spin many times, slow ones barely move.'),
      this.controls(['sentence', 'first', 'second', 'd-model', 'base']),
      this.seats,
      h('div', { class: 'swap-row' }, this.swapButton, this.swapText),
      this.summary,
      h('p', { class: 'key' }, 'Angles are measured counter-clockwise from 3 o’clock, as the rotation matrix turns a vector. Solid hand with a round tip: word 1; dashed hand with a square tip: word 2; the arrow runs from word 1 to word 2 (Δ).'),
      this.dials,
      this.table,
    );
    this._cards = [];
  }

  // positions of the two words (word 2 may repeat word 1: then its next occurrence)
  _seats(tokens, first, second) {
    const words = tokens.map(norm);
    const a = words.indexOf(norm(first));
    if (a < 0) throw new Error(`word 1 “${first}” is not in the sentence`);
    let b = words.findIndex((w, i) => w === norm(second) && i !== a);
    if (b < 0) b = words.indexOf(norm(second)) === a ? -2 : -1;
    if (b === -1) throw new Error(`word 2 “${second}” is not in the sentence`);
    if (b === -2) throw new Error(`word 2 “${second}” must sit at another seat than word 1`);
    return [a, b];
  }

  _swap() {
    const { values } = this.readParams();
    const tokens = values.sentence.trim().split(/\s+/);
    let a;
    let b;
    try {
      [a, b] = this._seats(tokens, values.first, values.second);
    } catch {
      return; // the error is already on show
    }
    [tokens[a], tokens[b]] = [tokens[b], tokens[a]];
    this.setParam('sentence', tokens.join(' '));
  }

  update(pe, p) {
    const tokens = p.sentence.trim().split(/\s+/);
    const [m, n] = this._seats(tokens, p.first, p.second);
    const inv = pe.ropeInvFreq(p.dModel, { base: p.base });
    const pairs = inv.length;
    const wa = tokens[m];
    const wb = tokens[n];
    const swapped = tokens.slice();
    [swapped[m], swapped[n]] = [swapped[n], swapped[m]];
    const swappedText = swapped.join(' ');

    this.seats.replaceChildren(
      ...tokens.map((t, i) => h('li', { class: i === m ? 'a' : i === n ? 'b' : '' }, i === m ? '● ' : i === n ? '■ ' : '', t, h('small', {}, `seat ${i}`))),
    );
    this.swapText.textContent = `→ “${swappedText}”`;
    this.summary.textContent =
      `“${wa}” sits at seat ${m} and “${wb}” at seat ${n}, so on dial i the angle from ${wa} to ${wb} is Δ = (${n} − ${m})·θᵢ = ${n - m < 0 ? '−' : ''}${Math.abs(n - m)}·θᵢ. ` +
      `In “${swappedText}” the seats trade places and Δ = ${m - n < 0 ? '−' : ''}${Math.abs(m - n)}·θᵢ: every relative angle has the same size and the opposite sign, so attention can tell the two sentences apart.`;

    // one card per pair, reused across updates
    while (this._cards.length < pairs) this._cards.push(this._makeCard());
    this.dials.replaceChildren(...this._cards.slice(0, pairs).map((c) => c.fig));
    const rows = [];
    for (let i = 0; i < pairs; i++) {
      // the angle the core's rotation uses: f32(position) · f32(θ_i), rounded to float32
      const angA = Math.fround(m * inv[i]);
      const angB = Math.fround(n * inv[i]);
      const rel = wrapPi(angB - angA);
      const relSwap = wrapPi(angA - angB);
      this._drawCard(this._cards[i], { i, theta: inv[i], angA, angB, rel, relSwap, wa, wb, m, n });
      rows.push([String(i), fmt(inv[i], 6), fixed(mod2pi(angA), 4), fixed(mod2pi(angB), 4), signed(rel), signed(relSwap)]);
    }
    this.setTable(
      this.table,
      `RoPE angles, d_model ${p.dModel}, base ${p.base}; “${wa}” at seat ${m}, “${wb}” at seat ${n}. Relative angle Δ = angle(${wb}) − angle(${wa}), wrapped to (−π, π].`,
      ['pair i', 'θᵢ (rad/seat)', `${wa} angle (rad, mod 2π)`, `${wb} angle (rad, mod 2π)`, 'Δ this sentence (rad)', 'Δ swapped (rad)'],
      rows,
    );
  }

  _makeCard() {
    const svg = h('svg:svg', { width: DIAL, height: DIAL, viewBox: `${-DIAL / 2} ${-DIAL / 2} ${DIAL} ${DIAL}`, role: 'img' });
    const cap = h('figcaption', {});
    const fig = h('figure', {}, svg, cap);
    return { fig, svg, cap };
  }

  _drawCard(card, { i, theta, angA, angB, rel, relSwap, wa, wb, m, n }) {
    const R = DIAL / 2 - 24;
    const pt = (a, r) => [r * Math.cos(a), -r * Math.sin(a)];
    const kids = [h('svg:circle', { r: R, class: 'face' })];
    for (let t = 0; t < 4; t++) {
      const [x1, y1] = pt((t * Math.PI) / 2, R - 5);
      const [x2, y2] = pt((t * Math.PI) / 2, R);
      kids.push(h('svg:line', { x1, y1, x2, y2, class: 'tick' }));
    }
    kids.push(h('svg:text', { x: R - 12, y: 3, class: 'axis', 'text-anchor': 'middle' }, '0'));
    // arc from hand a to hand b, the signed relative angle
    const ar = R * 0.42;
    if (Math.abs(rel) > 0.25) { // smaller angles: the caption says it, an arc would be a blot
      const [sx, sy] = pt(angA, ar);
      const [ex, ey] = pt(angA + rel, ar);
      const large = Math.abs(rel) > Math.PI ? 1 : 0;
      const sweep = rel > 0 ? 0 : 1; // SVG's y points down: counter-clockwise is sweep 0
      kids.push(h('svg:path', { d: `M${sx},${sy} A${ar},${ar} 0 ${large} ${sweep} ${ex},${ey}`, class: 'arc' }));
      // arrow head at the end, along the tangent
      const dir = rel > 0 ? 1 : -1;
      const tx = -Math.sin(angA + rel) * dir;
      const ty = -Math.cos(angA + rel) * dir;
      const nx = Math.cos(angA + rel);
      const ny = -Math.sin(angA + rel);
      const s = 5;
      kids.push(h('svg:path', { d: `M${ex},${ey} L${ex - tx * s * 1.6 + nx * s},${ey - ty * s * 1.6 + ny * s} L${ex - tx * s * 1.6 - nx * s},${ey - ty * s * 1.6 - ny * s} Z`, class: 'arrow' }));
    }
    const [ax, ay] = pt(angA, R - 8);
    const [bx, by] = pt(angB, R - 14);
    kids.push(h('svg:line', { x1: 0, y1: 0, x2: ax, y2: ay, class: 'hand-a' }));
    kids.push(h('svg:circle', { cx: ax, cy: ay, r: 4.5, class: 'tip-a' }));
    kids.push(h('svg:line', { x1: 0, y1: 0, x2: bx, y2: by, class: 'hand-b' }));
    kids.push(h('svg:rect', { x: bx - 4, y: by - 4, width: 8, height: 8, class: 'tip-b' }));
    kids.push(h('svg:circle', { r: 3, class: 'hub' }));
    // word labels outside the face; nudged apart when the hands nearly coincide
    const close = Math.abs(rel) < 0.35;
    const [lax, lay] = pt(angA + (close ? 0.18 * (rel >= 0 ? -1 : 1) : 0), R + 12);
    const [lbx, lby] = pt(angB + (close ? 0.18 * (rel >= 0 ? 1 : -1) : 0), R + 12);
    kids.push(h('svg:text', { x: lax, y: lay + 4, 'text-anchor': 'middle', class: 'lab-a' }, short(wa)));
    kids.push(h('svg:text', { x: lbx, y: lby + 4, 'text-anchor': 'middle', class: 'lab-b' }, short(wb)));
    card.svg.replaceChildren(...kids);
    card.svg.setAttribute(
      'aria-label',
      `Dial ${i}: ${wa} at ${fixed(mod2pi(angA), 3)} rad, ${wb} at ${fixed(mod2pi(angB), 3)} rad, relative angle ${signed(rel, 3)} rad; swapped ${signed(relSwap, 3)} rad.`,
    );
    card.cap.replaceChildren(
      h('div', {}, `pair ${i}: θ = ${fmt(theta)}`),
      h('div', {}, `Δ = ${signed(rel)} rad (${deg(rel)})`),
      h('div', { class: 'flip' }, `swapped: ${signed(relSwap)} rad`),
    );
  }
}

define(RopeClock);
