// The widget benchmark page (web/bench/bench-widgets.html). When a run ends,
// <body data-state> is "done" (or "error") and window.widgetBenchResults
// holds [{ tag, median, p95, max, n }].
import { configureCore, core } from '../lib/base/pe-element.js';
import { registerLesson } from '../lib/lesson/lesson-registry.js';
import * as lessonData from '../gen/lesson-data.js';
import { widgetCases, runWidgetBench } from './widgets.js';

// the quiz and the live output benchmarked are the lesson's, by id, as on the lesson page
registerLesson(lessonData);

const params = new URLSearchParams(location.search);
const simd = params.get('simd') !== '0';
configureCore({ simd });
const only = params.get('only')?.split(',') ?? null;
const size = params.get('size') === 'largest' ? 'largest' : 'default';
const frames = Math.max(5, Math.min(1000, Number(params.get('frames')) || 100));
const $ = (id) => document.getElementById(id);

// every widget file, so the timings never include a module download
await Promise.all(widgetCases.map((c) => import(c.module ?? `../widgets/${c.tag}.js`)));
const pe = await core();
$('build').textContent = pe.simd ? 'WebAssembly SIMD' : 'scalar WebAssembly';

async function run() {
  $('run').disabled = true;
  document.body.dataset.state = 'running';
  try {
    const rows = $('rows');
    rows.replaceChildren();
    const results = await runWidgetBench($('stage'), {
      frames,
      size,
      only,
      onProgress: (text) => ($('status').textContent = text),
    });
    for (const r of results) {
      const tr = document.createElement('tr');
      for (const v of [r.tag, r.median.toFixed(2), r.p95.toFixed(2), r.max.toFixed(2), String(r.n)]) {
        const td = document.createElement('td');
        td.textContent = v;
        tr.append(td);
      }
      rows.append(tr);
    }
    window.widgetBenchResults = results;
    $('status').textContent = `done (${pe.simd ? 'SIMD' : 'scalar'} build)`;
    document.body.dataset.state = 'done';
  } catch (error) {
    $('status').textContent = `error: ${error.message}`;
    window.widgetBenchError = error.message;
    document.body.dataset.state = 'error';
  } finally {
    $('run').disabled = false;
  }
}

$('run').addEventListener('click', run);
if (params.get('auto') === '1') run();
