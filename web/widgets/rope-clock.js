// <rope-clock>: RoPE as clocks. Each frequency pair i of a d_rot-wide
// vector is one dial; a word at seat p turns that dial's hand to the angle
// p·θ_i (θ_i from the core's ropeInvFreq). Two words, two hands: the angle
// between them is (n − m)·θ_i, and swapping the words flips its sign.
// Whether that changes the score depends on the phase φ between the query's
// and the key's pair (lesson, "Who comes before whom"): each pair adds
// cos(φ − Δθ_i), so the flip matters unless φ is 0 or π. The scores come from
// the core: unit pairs q = (cos φ, sin φ), k = (1, 0), rotated by pe.ropeApply.
import {
  PeElement,
  define,
  css,
  h,
  patchSpecs,
  setAttr,
  setText,
  inputError,
  STICKY_TOP,
  replaceChildrenIfChanged,
  observeSize,
} from '../lib/base/pe-element.js';
import { fixed, exponential } from '../lib/printing/pyformat.js';

const TAU = 2 * Math.PI;
const DIAL = 144; // dial drawing size (CSS px): two dials side by side on a 375 px phone
const LABEL_PX = 11; // smallest text in a dial, in CSS px as drawn

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

const text = (t) => document.createTextNode(t);
// an SVG coordinate to 1/100 px: finer than any screen shows, and a slow dial's
// hand that moves less than that on a step keeps its attributes (no restyle, no layout)
const at = (v) => Math.round(v * 100) / 100;

class RopeClock extends PeElement {
  static tag = 'rope-clock';
  static cssProperties = ['--pe-sticky-top'];
  static description = 'RoPE as clocks: one dial per frequency pair, a hand per word turned to p·θ_i.';
  static params = {
    sentence: {
      type: 'string',
      default: 'the dog bit the man',
      maxLength: 300,
      size: 26,
      label: 'sentence',
      pattern: /^\s*\S+(\s+\S+){0,63}\s*$/,
      patternMessage: 'must be 1 to 64 words separated by spaces',
    },
    first: {
      type: 'string',
      default: 'dog',
      maxLength: 40,
      size: 8,
      pattern: /^\S+$/,
      patternMessage: 'must be one word',
      label: 'word 1',
    },
    second: {
      type: 'string',
      default: 'man',
      maxLength: 40,
      size: 8,
      pattern: /^\S+$/,
      patternMessage: 'must be one word',
      label: 'word 2',
    },
    // the attribute keeps its name (pages embed it); the learner reads the lesson's letter for the
    // width RoPE turns in one head, not the model's width
    'd-model': { type: 'int', default: 8, min: 2, max: 64, even: true, label: 'd_rot (one head)' },
    base: { type: 'float', default: 10000, min: 2, max: 1e6, control: 'number', live: true, label: 'base' },
    // entry: a number box beside the slider (on a phone's slider a finger cannot hit one of 629 values)
    phase: { type: 'float', default: 0, min: 0, max: 6.28, step: 0.01, entry: true, label: 'phase φ (rad)' },
  };

  static styles = css`
    .seats { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0; padding: 0; list-style: none; }
    .seats li { border: 1px solid var(--pe-border); border-radius: 6px; padding: 1px 7px; font-size: .9em; background: var(--pe-panel); }
    .seats li small { color: var(--pe-muted); margin-left: 4px; font-family: var(--pe-mono); }
    .seats li.a { border: 2px solid var(--pe-pos); }
    .seats li.b { border: 2px dashed var(--pe-neg); }
    .swap-row { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; margin: 6px 0; }
    /* The phase slider, the swap and the score they change stay on screen
       together while the dials scroll by under them (on a 375 px phone two
       dials make a row, and d_model 64 makes 16 rows): sticky inside .stage,
       so they leave with the last dial. A host page with a bar of its own
       at the top of the screen says how tall it is in --pe-sticky-top. */
    .tune { position: sticky; top: ${STICKY_TOP}; z-index: 1; background: var(--pe-bg);
      border-bottom: 1px solid var(--pe-border); padding: 6px 0 2px; }
    .tune .controls, .tune .swap-row { margin: 0 0 6px; }
    .dials { display: grid; grid-template-columns: repeat(auto-fill, minmax(136px, 1fr)); gap: 8px; margin: 8px 0; }
    figure { margin: 0; border: 1px solid var(--pe-border); border-radius: 8px; padding: 5px; background: var(--pe-panel); min-width: 0; }
    figure svg { margin: 0 auto; overflow: visible; width: 100%; height: auto; max-width: ${DIAL}px; }
    figcaption { font-size: .78em; font-family: var(--pe-mono); line-height: 1.35; text-align: center; }
    figcaption .score { color: var(--pe-fg); font-weight: 600; }
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
    /* --dial-text: 11 px once the dial is scaled to its box (set in _fitText) */
    text { font: var(--dial-text, ${LABEL_PX}px) system-ui, sans-serif; fill: var(--pe-fg); }
    text.lab-a { fill: var(--pe-pos); font-weight: 700; }
    text.lab-b { fill: var(--pe-neg); font-weight: 700; }
    text.axis { fill: var(--pe-muted); }
    .key { font-size: .88em; color: var(--pe-muted); }
    .summary { font-size: .93em; }
    .scores { font-size: .93em; margin: 4px 0; }
    .scores b { font-family: var(--pe-mono); }
    .verdict { font-weight: 600; }
  `;

  build(root) {
    this.seats = h('ul', { class: 'seats', 'aria-label': 'Positions of the sentence' });
    this.swapButton = h('button', { type: 'button' }, 'Swap the two words');
    this.swapButton.addEventListener('click', () => this._swap());
    this.swapText = h('span', { class: 'key' });
    this.summary = h('p', { class: 'summary' });
    this.scores = h('p', { class: 'scores', 'aria-live': 'polite' });
    this.verdict = h('p', { class: 'verdict', 'aria-live': 'polite' });
    this.dials = h('div', { class: 'dials' });
    this.table = this.tableAlternative(undefined, { lazy: true });
    root.append(
      ...this.heading(
        'RoPE as clock dials: one dial per frequency pair',
        'Each word turns every dial’s hand to position × θᵢ. Press “Swap the two words”: the angle between the hands keeps its size and changes sign. Whether the score changes too depends on the phase φ; fast dials (first) spin many times, slow ones barely move.',
      ),
      this.controls(['sentence', 'first', 'second', 'd-model', 'base']),
      this.seats,
      this.summary,
      h(
        'p',
        { class: 'key' },
        'Angles are measured counter-clockwise from 3 o’clock, as the rotation matrix turns a vector. Long solid hand, round tip: word 1 (the query); short dashed hand, square tip: word 2 (the key); the arrow runs from word 1 to word 2, the angle Δ·θᵢ. Under each dial: its score in this sentence / swapped.',
      ),
      // the two controls of the experiment sit right above what they change (on a phone too)
      h(
        'div',
        { class: 'stage' },
        h(
          'div',
          { class: 'tune' },
          this.controls(['phase']),
          h('div', { class: 'swap-row' }, this.swapButton, this.swapText),
          this.scores,
        ),
        this.dials,
        this.verdict,
      ),
      this.table,
    );
    this._cards = [];
    this.own(observeSize(this.dials, () => this._fitText()));
  }

  // Dials shrink with their box; their text is sized so it is still LABEL_PX as drawn.
  _fitText() {
    const w = this._cards[0]?.svg.getBoundingClientRect().width;
    if (!w) return;
    const px = `${((LABEL_PX * DIAL) / Math.min(DIAL, w)).toFixed(2)}px`;
    // unchanged, it is not written again (a write restyles every dial)
    if (this.dials.style.getPropertyValue('--dial-text') !== px) this.dials.style.setProperty('--dial-text', px);
  }

  // positions of the two words (word 2 may repeat word 1: then its next occurrence)
  _seats(tokens, first, second) {
    const words = tokens.map(norm);
    const a = words.indexOf(norm(first));
    if (a < 0) throw inputError(`word 1 “${first}” is not in the sentence`);
    let b = words.findIndex((w, i) => w === norm(second) && i !== a);
    if (b < 0) b = words.indexOf(norm(second)) === a ? -2 : -1;
    if (b === -1) throw inputError(`word 2 “${second}” is not in the sentence`);
    if (b === -2) throw inputError(`word 2 “${second}” must be at another position than word 1`);
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

  update(pe, p, changed) {
    const tokens = p.sentence.trim().split(/\s+/);
    const [m, n] = this._seats(tokens, p.first, p.second);
    const inv = pe.ropeInvFreq(p.dModel, { base: p.base });
    const pairs = inv.length;
    const wa = tokens[m];
    const wb = tokens[n];
    const swapped = tokens.slice();
    [swapped[m], swapped[n]] = [swapped[n], swapped[m]];
    const swappedText = swapped.join(' ');

    // every update changes the kept nodes' text and attributes only (patchSpecs),
    // and the seats not at all while the sentence and the two words stay (a base or phase step)
    if (changed.has('sentence') || changed.has('first') || changed.has('second')) {
      patchSpecs(
        this.seats,
        tokens.map((t, i) => [
          'li',
          { class: i === m ? 'a' : i === n ? 'b' : '' },
          [i === m ? '● ' : i === n ? '■ ' : '', t, ['small', {}, `position ${i}`]],
        ]),
      );
    }
    setText(this.swapText, `→ “${swappedText}”`);
    const off = n - m;
    const sgn = (v) => (v < 0 ? `−${Math.abs(v)}` : `+${v}`);
    setText(
      this.summary,
      `“${wa}” (word 1, the query) is at position ${m} and “${wb}” (word 2, the key) at position ${n}: the offset is Δ = ${n} − ${m} = ${sgn(off)}, so on dial i the angle from ${wa} to ${wb} is ${sgn(off)}·θᵢ. ` +
        `In “${swappedText}” the offset is ${sgn(-off)}: every angle keeps its size and flips its sign. ` +
        `The score adds, over the ${pairs} pairs (length 1 here), cos(φ − Δ·θᵢ), where the phase φ is the angle of the query’s pair minus that of the key’s before rotation (set by W_Q and W_K; the same for every pair here).`,
    );

    // 1. the score of q (word 1) against k (word 2), this sentence and swapped:
    //    unit pairs q = (cos φ, sin φ), k = (1, 0), rotated by the core
    const pairsX = new Float32Array(4 * p.dModel);
    for (let i = 0; i < pairs; i++) {
      pairsX.set([Math.cos(p.phase), Math.sin(p.phase)], 2 * i); // q, then rotated to seat m
      pairsX.set([1, 0], p.dModel + 2 * i); // k at seat n
      pairsX.set([Math.cos(p.phase), Math.sin(p.phase)], 2 * p.dModel + 2 * i); // swapped: q at seat n
      pairsX.set([1, 0], 3 * p.dModel + 2 * i); // k at seat m
    }
    const rot = pe.ropeApply(pairsX, 4, p.dModel, { positions: [m, n, n, m], base: p.base, convention: 'interleaved' });
    const pairScore = (r1, r2, i) =>
      rot[r1 * p.dModel + 2 * i] * rot[r2 * p.dModel + 2 * i] +
      rot[r1 * p.dModel + 2 * i + 1] * rot[r2 * p.dModel + 2 * i + 1];
    let total = 0;
    let totalSwap = 0;
    const perPair = [];
    for (let i = 0; i < pairs; i++) {
      const a = pairScore(0, 1, i);
      const b = pairScore(2, 3, i);
      perPair.push([a, b]);
      total += a;
      totalSwap += b;
    }
    const nearFlat = Math.abs(Math.sin(p.phase)) < 0.005; // φ = 0 or π: cos(φ − x) = cos(φ + x)
    const same = Math.abs(total - totalSwap) < 5e-4;
    patchSpecs(this.scores, [
      'Score Σ cos(φ − Δ·θᵢ): ',
      ['b', {}, fixed(total, 4)],
      ' here, ',
      ['b', {}, fixed(totalSwap, 4)],
      ' swapped.',
    ]);
    setText(
      this.verdict,
      nearFlat
        ? `φ = ${Math.cos(p.phase) > 0 ? '0' : 'π'}: cosine is even, so both orders score the same and this head cannot tell which word comes first. Set another phase and the scores part.`
        : same
          ? 'Here the two scores happen to agree; move φ and they part.'
          : `The scores differ: with φ = ${fixed(p.phase, 2)} rad the head can tell which word comes first.`,
    );

    // 2. one card per pair, reused across updates
    while (this._cards.length < pairs) this._cards.push(this._makeCard());
    const figs = this._cards.slice(0, pairs).map((c) => c.fig);
    replaceChildrenIfChanged(this.dials, figs);
    const angles = [];
    for (let i = 0; i < pairs; i++) {
      // the angle the core's rotation uses: f32(position) · f32(θ_i), rounded to float32
      const angA = Math.fround(m * inv[i]);
      const angB = Math.fround(n * inv[i]);
      const rel = wrapPi(angB - angA);
      const relSwap = wrapPi(angA - angB);
      this._drawCard(this._cards[i], { i, theta: inv[i], angA, angB, rel, relSwap, wa, wb, score: perPair[i] });
      angles.push([angA, angB, rel, relSwap]);
    }
    // the table's text is made when the reader opens it
    const rows = () => [
      ...angles.map(([angA, angB, rel, relSwap], i) => [
        String(i),
        fmt(inv[i], 6),
        fixed(mod2pi(angA), 4),
        fixed(mod2pi(angB), 4),
        signed(rel),
        signed(relSwap),
        fixed(perPair[i][0], 4),
        fixed(perPair[i][1], 4),
      ]),
      ['sum', '', '', '', '', '', fixed(total, 4), fixed(totalSwap, 4)],
    ];
    this.setTable(
      this.table,
      `RoPE angles and scores, d_rot ${p.dModel}, base ${p.base}, phase φ = ${fixed(p.phase, 2)} rad; “${wa}” at position ${m}, “${wb}” at position ${n}. Angle Δ·θᵢ = angle(${wb}) − angle(${wa}), wrapped to (−π, π]; each pair scores cos(φ − Δ·θᵢ).`,
      [
        'pair i',
        'θᵢ (rad/position)',
        `${wa} angle (rad, mod 2π)`,
        `${wb} angle (rad, mod 2π)`,
        'Δ·θᵢ this sentence (rad)',
        'Δ·θᵢ swapped (rad)',
        'score this sentence',
        'score swapped',
      ],
      rows,
    );
    requestAnimationFrame(() => this._fitText());
  }

  // One dial's nodes, made once and kept: _drawCard sets their attributes.
  _makeCard() {
    const R = DIAL / 2 - 22;
    const pt = (a, r) => [r * Math.cos(a), -r * Math.sin(a)];
    const svg = h('svg:svg', {
      width: DIAL,
      height: DIAL,
      viewBox: `${-DIAL / 2} ${-DIAL / 2} ${DIAL} ${DIAL}`,
      role: 'img',
    });
    const cap = h('figcaption', {});
    const fig = h('figure', {}, svg, cap);
    const ticks = [];
    for (let t = 0; t < 4; t++) {
      const [x1, y1] = pt((t * Math.PI) / 2, R - 5);
      const [x2, y2] = pt((t * Math.PI) / 2, R);
      ticks.push(h('svg:line', { x1, y1, x2, y2, class: 'tick' }));
    }
    const marks = {
      face: h('svg:circle', { r: R, class: 'face' }),
      ticks,
      // below the 3 o'clock tick: small angles (slow dials) point just above it
      axis: h('svg:text', { x: R - 10, y: 15, class: 'axis', 'text-anchor': 'middle' }, '0'),
      arc: h('svg:path', { class: 'arc' }),
      arrow: h('svg:path', { class: 'arrow' }),
      handA: h('svg:line', { x1: 0, y1: 0, class: 'hand-a' }),
      tipA: h('svg:circle', { r: 4.5, class: 'tip-a' }),
      handB: h('svg:line', { x1: 0, y1: 0, class: 'hand-b' }),
      tipB: h('svg:rect', { width: 8, height: 8, class: 'tip-b' }),
      hub: h('svg:circle', { r: 3, class: 'hub' }),
      labA: h('svg:text', { 'text-anchor': 'middle', class: 'lab-a' }),
      labB: h('svg:text', { 'text-anchor': 'middle', class: 'lab-b' }),
    };
    const lines = [h('div', {}), h('div', {}), h('div', { class: 'flip' }), h('div', { class: 'score' })];
    cap.append(...lines);
    return { fig, svg, cap, marks, lines };
  }

  _drawCard(card, { i, theta, angA, angB, rel, relSwap, wa, wb, score }) {
    const R = DIAL / 2 - 22;
    const pt = (a, r) => [at(r * Math.cos(a)), at(-r * Math.sin(a))];
    const m = card.marks;
    // arc from hand a to hand b, the signed relative angle
    const ar = R * 0.42;
    const withArc = Math.abs(rel) > 0.25; // smaller angles: the caption says it, an arc would be a blot
    if (withArc) {
      const [sx, sy] = pt(angA, ar);
      const [ex, ey] = pt(angA + rel, ar);
      const large = Math.abs(rel) > Math.PI ? 1 : 0;
      const sweep = rel > 0 ? 0 : 1; // SVG's y points down: counter-clockwise is sweep 0
      setAttr(m.arc, 'd', `M${sx},${sy} A${ar},${ar} 0 ${large} ${sweep} ${ex},${ey}`);
      // arrow head at the end, along the tangent
      const dir = rel > 0 ? 1 : -1;
      const tx = -Math.sin(angA + rel) * dir;
      const ty = -Math.cos(angA + rel) * dir;
      const nx = Math.cos(angA + rel);
      const ny = -Math.sin(angA + rel);
      const s = 5;
      setAttr(
        m.arrow,
        'd',
        `M${ex},${ey} L${at(ex - tx * s * 1.6 + nx * s)},${at(ey - ty * s * 1.6 + ny * s)} L${at(ex - tx * s * 1.6 - nx * s)},${at(ey - ty * s * 1.6 - ny * s)} Z`,
      );
    }
    // word 1 a long hand, word 2 a short one: on slow dials, where the two
    // nearly coincide, both tips stay visible
    const [ax, ay] = pt(angA, R - 6);
    const [bx, by] = pt(angB, R * 0.55);
    setAttrs(m.handA, { x2: ax, y2: ay });
    setAttrs(m.tipA, { cx: ax, cy: ay });
    setAttrs(m.handB, { x2: bx, y2: by });
    setAttrs(m.tipB, { x: at(bx - 4), y: at(by - 4) });
    // word labels outside the face; nudged apart when the hands nearly coincide
    const close = Math.abs(rel) < 0.35;
    const [lax, lay] = pt(angA + (close ? 0.18 * (rel >= 0 ? -1 : 1) : 0), R + 12);
    const [lbx, lby] = pt(angB + (close ? 0.18 * (rel >= 0 ? 1 : -1) : 0), R + 12);
    setAttrs(m.labA, { x: lax, y: at(lay + 4) });
    setText(m.labA, short(wa));
    setAttrs(m.labB, { x: lbx, y: at(lby + 4) });
    setText(m.labB, short(wb));
    const kids = [
      m.face,
      ...m.ticks,
      m.axis,
      ...(withArc ? [m.arc, m.arrow] : []),
      m.handA,
      m.tipA,
      m.handB,
      m.tipB,
      m.hub,
      m.labA,
      m.labB,
    ];
    replaceChildrenIfChanged(card.svg, kids);
    setAttr(
      card.svg,
      'aria-label',
      `Dial ${i}: ${wa} at ${fixed(mod2pi(angA), 3)} rad, ${wb} at ${fixed(mod2pi(angB), 3)} rad, relative angle ${signed(rel, 3)} rad; swapped ${signed(relSwap, 3)} rad. Pair score ${fixed(score[0], 3)}, swapped ${fixed(score[1], 3)}.`,
    );
    const [l0, l1, l2, l3] = card.lines;
    setText(l0, `pair ${i}: θ = ${fmt(theta)}`);
    setText(l1, `angle ${signed(rel)} rad (${deg(rel)})`);
    setText(l2, `swapped: ${signed(relSwap)} rad`);
    setText(l3, `score ${fixed(score[0], 3)}/${fixed(score[1], 3)}`);
  }
}

function setAttrs(el, values) {
  for (const [k, v] of Object.entries(values)) setAttr(el, k, v);
}

define(RopeClock);
