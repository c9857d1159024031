// The lesson's size, per section, from the rendered HTML. `npm run lesson:stats`
// (node scripts/build-lesson.mjs --check) prints it, as every lesson build does:
//
//   main words   prose on the main path: text outside asides, quizzes, live
//                samples (<pe-live-output>) and code blocks (<pre>); tables and
//                note boxes count; each formula (<math>) is one word
//   aside words  the same count inside <details class="aside">
//   quizzes      <pe-quiz> elements
//   widgets      other custom elements (a tag with a dash), live samples apart
//   samples      <pe-live-output> elements
//
// The References part is not a section and is not counted.
// tests/js/lesson-budget.test.mjs holds the lesson to its budget with these.
import { parseFragment } from 'parse5';

const WORD = /[\p{L}\p{N}]+(?:['’.,-][\p{L}\p{N}]+)*/gu;
const SKIPPED = new Set(['pre', 'script', 'style', 'template']);
const NOT_WIDGETS = new Set(['pe-quiz', 'pe-live-output', 'pe-quiz-score']);

const isAside = (node) => node.tagName === 'details' && node.attrs.some((a) => a.name === 'class' && a.value.split(/\s+/).includes('aside'));

/** Counts for one section's HTML: { mainWords, asideWords, quizzes, widgets, samples }. */
export function sectionStats(html) {
  const stats = { mainWords: 0, asideWords: 0, quizzes: 0, widgets: 0, samples: 0 };
  const walk = (node, inAside) => {
    if (node.nodeName === '#text') {
      const n = node.value.match(WORD)?.length ?? 0;
      if (inAside) stats.asideWords += n;
      else stats.mainWords += n;
      return;
    }
    const tag = node.tagName;
    if (tag === 'math') {
      // one word per formula; its annotation (the TeX source) is not prose
      if (inAside) stats.asideWords += 1;
      else stats.mainWords += 1;
      return;
    }
    if (tag === 'pe-quiz') return void (stats.quizzes += 1);
    if (tag === 'pe-live-output') return void (stats.samples += 1);
    if (tag?.includes('-') && !NOT_WIDGETS.has(tag)) stats.widgets += 1; // its fallback text still counts
    if (SKIPPED.has(tag)) return;
    for (const child of node.childNodes ?? []) walk(child, inAside || isAside(node));
  };
  walk(parseFragment(html), false);
  return stats;
}

/** sections: [{ id, title, html }] (as buildLesson returns them) -> { sections: [{ id, title, ...counts }], totals }. */
export function lessonStats(sections) {
  const rows = sections.map((s) => ({ id: s.id, title: s.title, ...sectionStats(s.html) }));
  const totals = { mainWords: 0, asideWords: 0, quizzes: 0, widgets: 0, samples: 0 };
  for (const r of rows) for (const k of Object.keys(totals)) totals[k] += r[k];
  return { sections: rows, totals };
}

/** A plain-text table of lessonStats' result. */
export function formatStats({ sections, totals }) {
  const head = ['section', 'main words', 'aside words', 'quizzes', 'widgets', 'samples'];
  const line = (r, name) => [name, r.mainWords, r.asideWords, r.quizzes, r.widgets, r.samples].map(String);
  const rows = [head, ...sections.map((r) => line(r, r.id)), line(totals, 'total')];
  const widths = head.map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')).join('\n');
}
