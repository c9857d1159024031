// The lesson's size, per section, from the rendered HTML. `npm run lesson:stats`
// (node scripts/build/build-lesson.mjs --check) prints it, as every lesson build does:
//
//   main words   prose on the main path: text outside asides, quizzes,
//                exercises, live samples (<pe-live-output>) and code blocks
//                (<pre>); tables and note boxes count; each formula (<math>)
//                is one word
//   aside words  the same count inside <details class="aside">
//   quizzes      <pe-quiz> elements
//   exercises    <pe-exercise> elements (typed answers) and <pe-code-exercise> (code)
//   widgets      other custom elements (a tag with a dash), live samples apart
//   samples      <pe-live-output> elements
//
// The References part is not a section and is not counted.
// tests/js/lesson-budget.test.mjs holds the lesson to its budget with these.
import { parseFragment } from 'parse5';
import { seededRandom } from '../../web/lib/questions/random.js';
import { quizTextToHtml } from '../../web/lib/questions/quiz-text.js';

const WORD = /[\p{L}\p{N}]+(?:['’.,-][\p{L}\p{N}]+)*/gu;
const SKIPPED = new Set(['pre', 'script', 'style', 'template']);
const NOT_WIDGETS = new Set(['pe-quiz', 'pe-exercise', 'pe-code-exercise', 'pe-live-output', 'pe-quiz-score']);

const isAside = (node) =>
  node.tagName === 'details' && node.attrs.some((a) => a.name === 'class' && a.value.split(/\s+/).includes('aside'));

/** Counts for one section's HTML: { mainWords, asideWords, quizzes, exercises, widgets, samples }. */
export function sectionStats(html) {
  const stats = { mainWords: 0, asideWords: 0, quizzes: 0, exercises: 0, widgets: 0, samples: 0 };
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
    if (tag === 'pe-exercise' || tag === 'pe-code-exercise') return void (stats.exercises += 1);
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
  const totals = { mainWords: 0, asideWords: 0, quizzes: 0, exercises: 0, widgets: 0, samples: 0 };
  for (const r of rows) for (const k of Object.keys(totals)) totals[k] += r[k];
  return { sections: rows, totals };
}

/** A plain-text table of lessonStats' result. */
export function formatStats({ sections, totals }) {
  const head = ['section', 'main words', 'aside words', 'quizzes', 'exercises', 'widgets', 'samples'];
  const line = (r, name) => [name, r.mainWords, r.asideWords, r.quizzes, r.exercises, r.widgets, r.samples].map(String);
  const rows = [head, ...sections.map((r) => line(r, r.id)), line(totals, 'total')];
  const widths = head.map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '))
    .join('\n');
}

// ------------------------------------------------------------------ quiz tells
// Can a quiz be passed without reading the lesson? A learner who has not read
// it still sees the options, and picks the longest, the only one with a
// formula or a number, or the only careful ("usually") one. For every quiz,
// from the options as the page shows them:
//
//   length   characters a learner reads: the option's rendered HTML with the
//            tags removed and MathML annotations (the TeX source) dropped,
//            white space collapsed
//   formula  the option holds a formula (<math>)
//   number   a digit that starts a token outside formulas ("3", "0.25",
//            "8,192"), not one inside a name (T5, GPT-2, float16)
//   hedge    a word from HEDGES outside formulas
//
// A feature is a tell when only right options carry it ("alone"); length is
// one when the right options are longer than every wrong one, and, the other
// way round, when they are shorter than every wrong one: a rewrite that only
// shortens right options teaches "pick the shortest" instead. Options of
// equal length tell nothing.
// tests/js/quiz-tells.test.mjs holds the lesson to it.

/** The one list of words that make an option sound careful, and so right. */
export const HEDGES = [
  'usually',
  'often',
  'likely',
  'typically',
  'mostly',
  'about',
  'roughly',
  'may',
  'might',
  'can',
  'could',
  'some',
  'sometimes',
  'partly',
  'tends',
  'tend',
  'generally',
  'largely',
  'probably',
  'perhaps',
  'nearly',
  'almost',
  'approximately',
];
// "can" in "can't" or "cannot" is no hedge
const HEDGE = new RegExp(`\\b(?:${HEDGES.join('|')})\\b(?!['’]t)`, 'iu');
const NUMBER = /(?<![\p{L}\p{N}_][\p{L}\p{N}_-]*)\p{Nd}/u;
export const FEATURES = ['formula', 'number', 'hedge'];

/** What a learner sees of one option's HTML: { length, formula, number, hedge }. */
export function optionFeatures(html) {
  let prose = '';
  let all = '';
  let formula = false;
  const walk = (node, inMath) => {
    if (node.nodeName === '#text') {
      if (!inMath) prose += node.value;
      all += node.value;
      return;
    }
    if (node.tagName === 'annotation') return; // the TeX source, not shown
    if (node.tagName === 'math') formula = true;
    for (const child of node.childNodes ?? []) walk(child, inMath || node.tagName === 'math');
  };
  walk(parseFragment(html), false);
  const text = all.replace(/\s+/g, ' ').trim();
  return { length: [...text].length, formula, number: NUMBER.test(prose), hedge: HEDGE.test(prose), text };
}

/**
 * One quiz's options ([{ html, correct }]) -> { right, wrong, shortest, rightLongest, rightShortest, alone }:
 * right and wrong are lengths (the right option's, or for a select-all quiz
 * the shortest right one's; the longest wrong one's), shortest the shortest
 * wrong one's (against the longest right one), alone the features that only
 * right options carry.
 */
export function optionTells(options) {
  const seen = options.map((o) => ({ ...optionFeatures(o.html), correct: o.correct }));
  const rights = seen.filter((o) => o.correct);
  const wrongs = seen.filter((o) => !o.correct);
  const right = Math.min(...rights.map((o) => o.length));
  const wrong = Math.max(...wrongs.map((o) => o.length));
  const shortest = Math.min(...wrongs.map((o) => o.length));
  const alone = FEATURES.filter((f) => seen.some((o) => o[f]) && seen.every((o) => !o[f] || o.correct));
  const rightShortest = Math.max(...rights.map((o) => o.length)) < shortest;
  return { right, wrong, shortest, rightLongest: right > wrong, rightShortest, alone };
}

/**
 * quizzes: buildLesson's quizzes (id -> { section, options: [{ html, correct }], multiple }
 * or { section, generator }); samples: generator name -> [options] drawn
 * from it (sampleGenerator). -> { single, multiple, generated }: rows of
 * { id, section, ...optionTells } for the written quizzes, and per generator
 * { id, generator, draws, rightLongest, rightShortest, alone: { formula, number, hedge } } counts.
 */
export function quizTells(quizzes, samples = {}) {
  const single = [];
  const multiple = [];
  const generated = [];
  for (const q of Object.values(quizzes)) {
    if (q.generator) {
      const draws = samples[q.generator] ?? [];
      const tells = draws.map(optionTells);
      const alone = Object.fromEntries(FEATURES.map((f) => [f, tells.filter((t) => t.alone.includes(f)).length]));
      const count = (k) => tells.filter((t) => t[k]).length;
      generated.push({
        id: q.id,
        section: q.section,
        generator: q.generator,
        draws: draws.length,
        rightLongest: count('rightLongest'),
        rightShortest: count('rightShortest'),
        alone,
      });
    } else (q.multiple ? multiple : single).push({ id: q.id, section: q.section, ...optionTells(q.options) });
  }
  return { single, multiple, generated };
}

/**
 * Options of `draws` questions from a quiz generator, as the page shows them
 * (quizTextToHtml); seeds as in tests/js/quiz-text.test.mjs.
 */
export function sampleGenerator(generate, pe, draws = 200) {
  return Array.from({ length: draws }, (_, k) =>
    generate(pe, seededRandom((k + 1) * 2654435761)).options.map((o) => ({
      html: quizTextToHtml(o.text),
      correct: !!o.correct,
    })),
  );
}

/** A plain-text table of quizTells' result, with the summary lines. */
export function formatQuizTells({ single, multiple, generated }) {
  const head = ['quiz', 'right', 'wrong', 'ratio', 'right is', 'alone'];
  const extreme = (r) => (r.rightLongest ? 'longest' : r.rightShortest ? 'shortest' : '');
  const line = (r) =>
    [r.id, r.right, r.wrong, (r.right / r.wrong).toFixed(2), extreme(r), r.alone.join(' ')].map(String);
  const table = (rows) => {
    const cells = [head, ...rows.map(line)];
    const widths = head.map((_, c) => Math.max(...cells.map((r) => r[c].length)));
    return cells
      .map((r) =>
        r
          .map((cell, c) => (c === 0 || c >= 4 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
          .join('  ')
          .trimEnd(),
      )
      .join('\n');
  };
  const count = (rows, f) => rows.filter(f).length;
  const out = [
    'quiz tells: characters a learner reads in the right option and in the longest wrong one; "alone": a formula, number or hedge only the right option carries',
    table(single),
    `right option longest in ${count(single, (r) => r.rightLongest)} of ${single.length} written single-answer quizzes (shortest in ${count(single, (r) => r.rightShortest)}); a feature alone on the right option in ${count(single, (r) => r.alone.length)}`,
  ];
  if (multiple.length) {
    out.push('select-all quizzes (right: the shortest right option)', table(multiple));
    out.push(
      `right options all longer than every wrong one in ${count(multiple, (r) => r.rightLongest)} of ${multiple.length} select-all quizzes (all shorter in ${count(multiple, (r) => r.rightShortest)}); a feature only right options carry in ${count(multiple, (r) => r.alone.length)}`,
    );
  }
  for (const g of generated) {
    const alone = FEATURES.map((f) => `${f} ${g.alone[f]}`).join(', ');
    out.push(
      `generated ${g.id}: right option longest in ${g.rightLongest} of ${g.draws} draws (shortest in ${g.rightShortest}); alone on the right option: ${alone}`,
    );
  }
  return out.join('\n');
}
