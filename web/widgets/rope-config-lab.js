// <rope-config-lab>: a model's own RoPE, from its Hugging Face config.json
// (pasted, or one of the published presets in lib/rope/rope-presets.js). For every
// rotated pair: the wavelength 2π/θᵢ before and after the config's scaling,
// the original and the claimed context, and the largest angle the pair turns
// through in training (offsets up to the training length − 1) against the
// largest at a target length; pairs that would turn through angles never
// seen in training are marked. What the model saw in training is an
// assumption, and the verdict says which: by default positions up to the
// config's original length L with the unscaled frequencies (a control sets
// another length, as for a model its maker trained on longer sequences).
// Frequencies and the attention factor come from the core (ropeInvFreq,
// ropeAttentionFactor); lib/rope/rope-config.js only reads the file.
import { PeElement, define, css, h, patchSpecs, setAttr, setText, inputError } from '../lib/base/pe-element.js';
import { logPairPlot, cursorLine, plotStyles, plotLegend } from '../lib/drawing/chart.js';
import { fixed, exponential, grouped } from '../lib/printing/pyformat.js';
import { parseRopeConfig, pairChanged, MAX_POSITION } from '../lib/rope/rope-config.js';
import { ROPE_PRESETS, ropePreset } from '../lib/rope/rope-presets.js';
import { bindPairCursor, pairCursorHint, placeCursorLines } from '../lib/drawing/grid-cursor.js';
import { TWO_PI, pairColumns, rowAt } from '../lib/rope/pair-angles.js';
import { count, marked, summaryLines } from '../lib/rope/rope-config-summary.js';

const PLOT_H = 250;
const PAD = { l: 54, r: 14, t: 12, b: 36 };

function fmt(x) {
  if (!Number.isFinite(x)) return String(x);
  if (x >= 1e7) return exponential(x, 2);
  if (x >= 100) return grouped(String(Math.round(x)));
  if (x >= 0.01) return fixed(x, 2);
  return exponential(x, 2);
}
// A config as readable JSON: lists of numbers on one line.
function pretty(config) {
  return JSON.stringify(config, null, 2).replace(
    /\[\s+([-0-9.e+,\s]+?)\s+\]/g,
    (_, body) => `[${body.split(/,\s+/).join(', ')}]`,
  );
}

const presetOptions = [...ROPE_PRESETS.map((p) => p.id), 'custom'];
const presetLabels = Object.fromEntries([
  ...ROPE_PRESETS.map((p) => [p.id, p.name]),
  ['custom', 'your config (pasted below)'],
]);

class RopeConfigLab extends PeElement {
  static tag = 'rope-config-lab';
  static description =
    "A model's RoPE from its Hugging Face config.json: wavelengths before and after scaling, trained vs claimed context.";
  static params = {
    preset: {
      type: 'enum',
      options: presetOptions,
      optionLabels: presetLabels,
      default: 'llama-3.1-8b',
      label: 'model',
    },
    target: {
      type: 'int',
      default: 0,
      min: 0,
      max: MAX_POSITION,
      control: 'number',
      label: 'target length (0: the claimed one)',
    },
    trained: { type: 'int', default: 0, min: 0, max: MAX_POSITION, control: 'number', label: 'training length (0: L)' },
  };

  static styles =
    plotStyles +
    css`
    :host { --before: #6b7280; --after: #0072b2; --new: #d55e00; }
    @media (prefers-color-scheme: dark) { :host { --before: #9aa4b1; --after: #56b4e9; --new: #ff9e4a; } }
    .ref2 { stroke: var(--pe-fg); stroke-width: 1.2; stroke-dasharray: 2 3; }
    .s-before { stroke: var(--before); stroke-width: 5; opacity: .5; fill: none; }
    .s-after { stroke: var(--after); stroke-width: 2.2; fill: none; }
    circle.new { fill: var(--new); }
    .legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: .85em; margin: 4px 0 8px; padding: 0; list-style: none; }
    .legend li { display: inline-flex; align-items: center; gap: 6px; }
    .summary { margin: .5em 0; }
    .summary p { margin: .25em 0; }
    .source { font-size: .85em; color: var(--pe-muted); }
    .paste summary { cursor: pointer; color: var(--pe-muted); font-size: .92em; }
    textarea { width: 100%; min-height: 12em; font: 12px/1.4 var(--pe-mono); color: inherit; background: var(--pe-panel);
      border: 1px solid var(--pe-border); border-radius: 6px; padding: 6px; resize: vertical; }
    .paste-row { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin-top: 4px; }
    .read td, .read th { white-space: nowrap; }
    .read td:last-child { white-space: normal; text-align: left; color: var(--pe-muted); font-family: system-ui, sans-serif; }
    h4 { margin-top: 10px; }
    /* long model names: the select shrinks, its label stays one word */
    label[for=c-preset] { white-space: nowrap; max-width: 100%; }
    #c-preset { max-width: min(20em, 70vw); }
  `;

  build(root) {
    this.source = h('p', { class: 'source' });
    this.summary = h('div', { class: 'summary', 'aria-live': 'polite' });
    this.read = h('div', { class: 'table-wrap read' });
    this.textarea = h('textarea', { 'aria-label': 'config.json to show', spellcheck: 'false', id: 'config-text' });
    this.pasteError = h('p', { class: 'error', role: 'alert' });
    const show = h('button', { type: 'button' }, 'Show this config');
    show.addEventListener('click', () => this._applyPaste());
    this.textarea.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this._applyPaste();
      }
    });
    this.paste = h(
      'details',
      { class: 'paste' },
      h('summary', {}, 'Paste a config.json (or edit this one)'),
      this.textarea,
      h(
        'div',
        { class: 'paste-row' },
        show,
        h('span', { class: 'status' }, 'Ctrl+Enter also shows it; nothing leaves this page.'),
      ),
      this.pasteError,
    );
    this.wlSvg = h('svg:svg', { role: 'img', tabindex: '0', height: PLOT_H, width: 300 });
    this.angSvg = h('svg:svg', { role: 'img', tabindex: '0', height: PLOT_H, width: 300 });
    this.plotWrap = h(
      'div',
      {},
      h('h4', {}, 'Wavelength of every pair, before and after the scaling'),
      this.wlSvg,
      plotLegend([
        { cls: 's-before', label: 'before (the pre-trained RoPE)' },
        { cls: 's-after', label: 'after the config’s scaling' },
        { cls: 'ref', label: 'original context L' },
        { cls: 'ref2', label: 'claimed context' },
      ]),
      h('h4', {}, 'Largest angle each pair turns through: in training and at the target'),
      this.angSvg,
      plotLegend([
        { cls: 's-before', label: 'in training: (training length − 1)·θᵢ' },
        { cls: 's-after', label: 'at the target: (target − 1)·θᵢ after scaling' },
        { cls: 'ref2', label: 'one full turn, 2π' },
        { cls: 'new', label: 'angles never seen in training', dot: 4 },
      ]),
    );
    this.readout = h('p', { class: 'readout', 'aria-live': 'polite' });
    this.table = this.tableAlternative('Show every pair as a table', { fill: () => this._state && this._fillTable() });
    root.append(
      ...this.heading(
        'Your model’s RoPE: what its config.json does to every pair',
        'Pick a published model or paste a config.json. The lab reads rope_theta, rope_scaling and the head size, computes each pair’s frequency as Hugging Face does, and marks the pairs that would turn through angles they never reached in training.',
      ),
      this.controls(['preset', 'target', 'trained']),
      this.source,
      this.summary,
      this.paste,
      this.plotWrap,
      this.readout,
      h('details', { class: 'alt' }, h('summary', {}, 'What was read from the config'), this.read),
      this.table,
    );
    this.cursor = null;
    for (const svg of [this.wlSvg, this.angSvg]) {
      bindPairCursor(svg, {
        pad: PAD,
        geom: () => this._geom,
        pairs: () => this._state?.pairs ?? null,
        current: () => this.cursor,
        moveTo: (cur) => {
          this.cursor = cur;
          this._drawCursor();
        },
      });
    }
    this._custom = null;
    this._filled = null;
    this.redrawOnResize(this.plotWrap);
  }

  _applyPaste() {
    try {
      const cfg = parseRopeConfig(this.textarea.value);
      this._custom = { cfg, text: this.textarea.value };
      setText(this.pasteError, '');
      this._filled = 'custom';
      if (this.getAttribute('preset') === 'custom') this.schedule();
      else this.setAttribute('preset', 'custom');
    } catch (error) {
      // the picture keeps showing the last config that worked
      setText(this.pasteError, `${message(error)} The picture still shows the previous config.`);
    }
  }

  update(pe, p) {
    // the plots' width, read before this update writes anything (widthOf:
    // kept by a ResizeObserver, so the summary written below is not laid
    // out again to measure it)
    const width = this.widthOf(this.plotWrap);
    let cfg;
    let name;
    let source;
    let longTraining = null;
    if (p.preset === 'custom') {
      if (!this._custom) {
        this.paste.open = true;
        throw inputError('Paste a config.json into the box below and press “Show this config”.');
      }
      ({ cfg } = this._custom);
      name = 'Your config';
      source = 'Pasted into this page; nothing is sent anywhere.';
    } else {
      const preset = ropePreset(p.preset);
      cfg = parseRopeConfig(preset.config);
      name = preset.name;
      source = `Source: ${preset.source}.`;
      longTraining = preset.longTraining ?? null;
      if (this._filled !== p.preset) {
        this.textarea.value = pretty(preset.config);
        this._filled = p.preset;
        setText(this.pasteError, '');
      }
    }
    // L: the config's original length, from which its scaling is computed;
    // Lt: the length training is assumed to have reached, with the
    // unscaled frequencies (the verdict's assumption, L unless set)
    const L = cfg.trainedLength;
    const Lt = p.trained || L;
    const T = p.target || cfg.claimedLength;
    const pairs = cfg.rotaryDim / 2;
    // the core's frequencies, once per config and scaling (a target changes
    // them only for the length-dependent types); 32768 pairs take the exact
    // pow tens of milliseconds
    const scaling = cfg.scalingAt(T);
    const key = JSON.stringify([cfg.rotaryDim, cfg.base, scaling]);
    if (this._freqs?.key !== key) {
      const before =
        this._freqs?.rotaryDim === cfg.rotaryDim && this._freqs.base === cfg.base
          ? this._freqs.before
          : pe.ropeInvFreq(cfg.rotaryDim, { base: cfg.base });
      const after = scaling ? pe.ropeInvFreq(cfg.rotaryDim, { base: cfg.base, scaling }) : before;
      this._freqs = {
        key,
        rotaryDim: cfg.rotaryDim,
        base: cfg.base,
        before,
        after,
        attn: scaling ? pe.ropeAttentionFactor(scaling) : 1,
      };
    }
    const { before, after, attn } = this._freqs;
    const rows = pairColumns(before, after, Lt, T, this._state?.rows ?? null);
    // what does not depend on the target, once per set of columns
    if (this._fixed?.cols !== rows.wlBefore) {
      const changed = indicesWhere(pairs, (i) => pairChanged(rows.before[i], rows.after[i]));
      const slow = indicesWhere(pairs, (i) => rows.trained[i] < TWO_PI);
      // the least stretched of the slow pairs, and whether they all share its stretch
      const leastSlow = slow.length ? slow.reduce((a, b) => (rows.ratio[b] < rows.ratio[a] ? b : a)) : -1;
      this._fixed = {
        cols: rows.wlBefore,
        changed,
        // over the changed pairs only (starting from 1 made every stretch range start or end at ×1)
        most: changed.reduce((m, i) => Math.max(m, rows.ratio[i]), -Infinity),
        least: changed.reduce((m, i) => Math.min(m, rows.ratio[i]), Infinity),
        slow,
        leastSlow,
        slowSame: slow.every((i) => !pairChanged(rows.ratio[i], rows.ratio[leastSlow])),
        trainedPlot: rows.trained.map((v) => Math.max(v, 1e-9)),
        reachedPlot: new Float64Array(pairs),
        wlPlot: null,
      };
    }
    // the pairs that meet new angles at T, read once for the summary and the plot's label
    const fresh = marked(rows.fresh);
    this._state = { cfg, rows, fresh, L, Lt, assumed: p.trained > 0, T, attn, name, pairs, longTraining };
    setText(this.source, source);
    this._summarize();
    this._draw(width);
    this._drawCursor();
    // the fields read from the config (a new table only for a new config)
    const readKey = p.preset === 'custom' ? this._custom : p.preset;
    if (this._readKey !== readKey) {
      this._readKey = readKey;
      this._fillRead(cfg, p.preset === 'custom' ? 'your config.json' : `${name}’s config.json`);
    }
    if (this.table.open) this._fillTable();
  }

  _fillRead(cfg, from) {
    this.read.replaceChildren(
      h(
        'table',
        {},
        h('caption', {}, `Read from ${from}`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['field', 'value', 'note'].map((x) => h('th', { scope: 'col' }, x)),
          ),
        ),
        h(
          'tbody',
          {},
          cfg.read.map(([f, v, why]) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, f),
              h('td', {}, typeof v === 'number' ? String(v) : String(v)),
              h('td', {}, why ?? ''),
            ),
          ),
        ),
      ),
    );
  }

  _summarize() {
    patchSpecs(
      this.summary,
      summaryLines(this._state, this._fixed).map((t) => ['p', {}, t]),
    );
  }

  _draw(width) {
    const { rows, L, T, cfg, pairs } = this._state;
    const W = Math.max(260, width);
    // the wavelengths do not depend on the target: drawn again only when
    // the columns, the reference lines or the width change
    const fixed = this._fixed;
    const wlKey = `${W} ${L} ${cfg.claimedLength}`;
    const wlSame = fixed.wlPlot?.key === wlKey;
    const wl = wlSame
      ? fixed.wlPlot.plot
      : logPairPlot({
          W,
          H: PLOT_H,
          pad: PAD,
          n: pairs,
          yLabel: 'wavelength (tokens, log scale)',
          curves: [
            { values: rows.wlBefore, cls: 's-before' },
            { values: rows.wlAfter, cls: 's-after' },
          ],
          refs: [
            { v: L, cls: 'ref', label: `original L = ${count(L)}` },
            ...(cfg.claimedLength !== L
              ? [{ v: cfg.claimedLength, cls: 'ref2', label: `claimed ${count(cfg.claimedLength)}`, right: true }]
              : []),
          ],
        });
    fixed.wlPlot = { key: wlKey, plot: wl };
    const reached = fixed.reachedPlot;
    for (let i = 0; i < pairs; i++) reached[i] = Math.max(rows.reached[i], 1e-9);
    const ang = logPairPlot({
      W,
      H: PLOT_H,
      pad: PAD,
      n: pairs,
      yLabel: 'largest angle (radians, log scale)',
      curves: [
        { values: fixed.trainedPlot, cls: 's-before' },
        { values: reached, cls: 's-after' },
      ],
      refs: [{ v: TWO_PI, cls: 'ref2', label: 'one full turn (2π)' }],
      dots: { values: reached, flags: rows.fresh, cls: 'new' },
    });
    this._geom = wl;
    for (const [svg, plot] of [
      [this.wlSvg, wlSame ? null : wl],
      [this.angSvg, ang],
    ]) {
      if (!plot) continue;
      setAttr(svg, 'width', W);
      // the cursor line last, hidden until _drawCursor places it
      patchSpecs(svg, [...plot.specs, cursorLine(PAD, PLOT_H, null)]);
    }
    this._cursorLines = [this.wlSvg.lastElementChild, this.angSvg.lastElementChild];
    const fresh = this._state.fresh.length;
    setAttr(
      this.wlSvg,
      'aria-label',
      `Wavelength of each of ${pairs} pairs before and after scaling, log scale, with lines at the original context ${L} and the claimed ${cfg.claimedLength}. Last pair: ${fmt(rows.wlBefore[pairs - 1])} before, ${fmt(rows.wlAfter[pairs - 1])} after. Focus and use the arrow keys to read a pair.`,
    );
    setAttr(
      this.angSvg,
      'aria-label',
      `Largest angle of each pair in training and at ${T} tokens, log scale, with a line at 2π; ${fresh} of ${pairs} pairs turn through angles never seen in training. Focus and use the arrow keys to read a pair.`,
    );
  }

  _drawCursor() {
    if (!this._state || !this._cursorLines) return;
    if (this.cursor === null) {
      placeCursorLines(this._cursorLines, null);
      setText(this.readout, pairCursorHint('a plot'));
      return;
    }
    const i = Math.min(this.cursor, this._state.pairs - 1);
    placeCursorLines(this._cursorLines, this._geom.X(i));
    const r = rowAt(this._state.rows, i);
    setText(
      this.readout,
      `pair ${i}: wavelength ${fmt(r.wlBefore)} → ${fmt(r.wlAfter)} (×${fixed(r.ratio, 3)}); largest angle ${fmt(r.trained)} rad in training, ${fmt(r.reached)} rad at ${count(this._state.T)}${r.fresh ? ': never seen in training' : ''}`,
    );
  }

  _fillTable() {
    const { rows, Lt, T, pairs } = this._state;
    this.setTable(
      this.table,
      `Every pair: θᵢ and wavelength λᵢ = 2π/θᵢ before and after scaling; largest angle at offsets up to ${count(Lt - 1)} (in training) and up to ${count(T - 1)}`,
      [
        'pair i',
        'θᵢ before',
        'λᵢ before',
        'λᵢ after',
        'stretch',
        'angle in training',
        'angle at target',
        'new angles?',
      ],
      Array.from({ length: pairs }, (_, i) => rowAt(rows, i)).map((r) => [
        String(r.i),
        exponential(r.before, 3),
        fmt(r.wlBefore),
        fmt(r.wlAfter),
        `×${fixed(r.ratio, 3)}`,
        fmt(r.trained),
        fmt(r.reached),
        r.fresh ? 'yes' : '—',
      ]),
    );
  }
}

// Every pair's numbers as columns (Float64Array; fresh flags as Uint8Array):
function indicesWhere(n, pred) {
  const out = [];
  for (let i = 0; i < n; i++) if (pred(i)) out.push(i);
  return out;
}

function message(error) {
  return (error instanceof Error ? error.message : String(error)).replace(/^parseRopeConfig: /, '');
}

define(RopeConfigLab);
