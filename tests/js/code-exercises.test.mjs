// The code exercises (<pe-code-exercise>, issue 48) in Node, with the real
// Pyodide from npm and the very driver the page's worker runs
// (web/lib/python/python-driver.js): each worked solution passes every case on
// many seeds; the starter does not; two or more typical wrong solutions per
// exercise fail at the case where they first go wrong, with the slip they
// make named; the driver reports syntax errors, exceptions (the traceback
// trimmed to the learner's code), print output (capped) and refuses the
// bridges to JavaScript; the definitions are checked by the build.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadPosenc } from '../../web/posenc.js';
import { seededRandom } from '../../web/lib/questions/random.js';
import { DRIVER } from '../../web/lib/python/python-driver.js';
import { composeCode, judgeCases, firstDifference, parameterNames } from '../../web/lib/python/code-check.js';
import { readCodeExercises, checkCodeExercise } from '../../scripts/lesson/code-exercise.mjs';
import { createRenderer } from '../../scripts/build/build-lesson.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const definitions = readCodeExercises(path.join(root, 'lessons/positional-encoding/code-exercises'));
const SEEDS = 12;
let pe;
let run;
const caseModules = {};

before(async () => {
  pe = await loadPosenc();
  const { loadPyodide } = await import(pathToFileURL(path.join(root, 'node_modules/pyodide/pyodide.mjs')).href);
  const py = await loadPyodide({ indexURL: path.join(root, 'node_modules/pyodide/') });
  py.runPython(DRIVER);
  const runPy = py.globals.get('_pe_run');
  run = (code, name = '', cases = []) => JSON.parse(runPy(code, name, JSON.stringify(cases), 20000));
  for (const def of Object.values(definitions))
    caseModules[def.cases] = (await import(`../../web/code-cases/${def.cases}.js`)).default;
});

const nameOf = (def) => /def\s+(\w+)/.exec(def.signature)[1];

/** The verdict on `body` (a function body) for one seed's cases. */
function verdict(def, body, seed) {
  const cases = caseModules[def.cases].cases(pe, seededRandom(seed));
  const r = run(
    composeCode(def, body),
    nameOf(def),
    cases.map((c) => c.args),
  );
  return { ...judgeCases(cases, r.returns, def, r.error?.case ?? null), r, cases };
}

// Typical wrong solutions: [exercise, what, the solution's text -> the wrong one, first failing case, slip]
const WRONG = [
  ['sinusoidal-row', 'i for 2i', ['-2 * i / d_model', '-i / d_model'], 2, 'i-for-2i'],
  [
    'sinusoidal-row',
    'cos before sin',
    [
      'row.append(math.sin(pos * w))\n    row.append(math.cos(pos * w))',
      'row.append(math.cos(pos * w))\n    row.append(math.sin(pos * w))',
    ],
    0,
    'cos-sin',
  ],
  [
    'sinusoidal-row',
    'sines then cosines',
    [
      '    row.append(math.sin(pos * w))\n    row.append(math.cos(pos * w))\nreturn row',
      '    row.append(math.sin(pos * w))\nfor i in range(d_model // 2):\n    row.append(math.cos(pos * base ** (-2 * i / d_model)))\nreturn row',
    ],
    0,
    'concatenated',
  ],
  ['rope-vector', 'always the half pairing', ["if layout == 'half' else", 'if True else'], 3, 'wrong-pairing'],
  [
    'rope-vector',
    'clockwise',
    [
      'a * math.cos(phi) - b * math.sin(phi)',
      'a * math.cos(phi) + b * math.sin(phi)',
      'a * math.sin(phi) + b * math.cos(phi)',
      '-a * math.sin(phi) + b * math.cos(phi)',
    ],
    1,
    'clockwise',
  ],
  [
    'rope-vector',
    'degrees',
    ['phi = pos * base ** (-2 * i / d)', 'phi = math.radians(pos * base ** (-2 * i / d))'],
    1,
    'degrees',
  ],
  [
    'alibi-slopes',
    'the power-of-two rule for every count',
    ['if math.log2(n_heads).is_integer():', 'if True:'],
    3,
    'no-power-rule',
  ],
  [
    'alibi-slopes',
    'the first slopes, not every other',
    ['[0::2][:n_heads - c]', '[:n_heads - c]'],
    3,
    'first-not-every-other',
  ],
  ['t5-bucket', 'query minus key', ['rel = relative_position', 'rel = -relative_position'], 1, 'sign'],
  ['t5-bucket', 'buckets not halved', ['    num_buckets //= 2\n', ''], 1, 'no-halving'],
  ['t5-bucket', 'rounded up', ['max_exact + int(', 'max_exact + math.ceil('], 5, null],
  [
    'llama3-inv-freq',
    'everything divided by factor',
    ['if wavelen < high_wavelen:', 'if False:', 'elif wavelen > low_wavelen:', 'elif True:'],
    0,
    'linear',
  ],
  ['llama3-inv-freq', 'no scaling', ['return out', 'return inv_freq'], 0, 'unscaled'],
  [
    'alibi-attention',
    'no causal mask',
    ['for j in range(i + 1)]\n', 'for j in range(n)]\n', 'for j in range(i + 1)) for c', 'for j in range(n)) for c'],
    1,
    'no-mask',
  ],
  ['alibi-attention', 'the bias added', ['- slope * (i - j)', '+ slope * (i - j)'], 1, 'plus-sign'],
  ['alibi-attention', 'no 1/sqrt(d)', [' / math.sqrt(d)', ''], 1, 'no-scale'],
];

function wrongBody(def, replacements) {
  let body = def.solution;
  for (let i = 0; i < replacements.length; i += 2) {
    assert.ok(body.includes(replacements[i]), `${replacements[i]} is not in the solution`);
    body = body.split(replacements[i]).join(replacements[i + 1]);
  }
  return body;
}

test('six code exercises, each in the section that teaches it, sound as the build checks them', () => {
  assert.deepEqual(Object.keys(definitions).sort(), [
    'alibi-attention',
    'alibi-slopes',
    'llama3-inv-freq',
    'rope-vector',
    'sinusoidal-row',
    't5-bucket',
  ]);
  for (const [name, def] of Object.entries(definitions)) {
    assert.deepEqual(checkCodeExercise(def, caseModules), [], name);
    assert.ok(parameterNames(def.signature).length >= 1, name);
  }
});

test('each worked solution passes every case, on many learners’ seeds; the starter does not', () => {
  for (const [name, def] of Object.entries(definitions)) {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const v = verdict(def, def.solution, seed * 7919);
      assert.ok(
        v.right,
        `${name}, seed ${seed}: ${JSON.stringify(v.failing)?.slice(0, 300)} ${v.r.error?.traceback ?? ''}`,
      );
    }
    assert.equal(verdict(def, def.starter, 1).right, false, `${name}: the starter passes`);
  }
});

test('two learners get different cases; the edge cases come first for everyone', () => {
  for (const [name, def] of Object.entries(definitions)) {
    const a = caseModules[def.cases].cases(pe, seededRandom(1));
    const b = caseModules[def.cases].cases(pe, seededRandom(2));
    assert.notDeepEqual(a, b, name);
    assert.deepEqual(a[0].args, b[0].args, `${name}: the first case is an edge case, the same for all`);
    assert.ok(a.length >= 6, `${name}: only ${a.length} cases`);
  }
});

test('typical wrong solutions fail at the case where they first go wrong, with their slip named', () => {
  const counts = {};
  for (const [name, what, replacements, index, slip] of WRONG) {
    const def = definitions[name];
    counts[name] = (counts[name] ?? 0) + 1;
    for (const seed of [1, 2, 3]) {
      const v = verdict(def, wrongBody(def, replacements), seed);
      assert.equal(v.right, false, `${name} (${what}) passes`);
      assert.equal(v.failing.index, index, `${name} (${what}), seed ${seed}: fails first at case ${v.failing.index}`);
      assert.equal(v.failing.slip?.id ?? null, slip, `${name} (${what}): slip ${v.failing.slip?.id}`);
    }
  }
  for (const name of Object.keys(definitions)) assert.ok(counts[name] >= 2, `${name}: ${counts[name]} wrong solutions`);
});

test('the judge: shapes, types, tolerance, exact whole numbers', () => {
  const t = { abs: 1e-4 };
  assert.equal(firstDifference([1, 2], [1, 2.00005], t), null);
  assert.deepEqual(firstDifference([1, 2], [1, 2.001], t).path, [1]);
  assert.match(firstDifference([1, 2], [1], t).reason, /list of 2, got a list of 1/);
  assert.match(firstDifference([[1], [2]], [[1], 'x'], t).reason, /expected a list of 1, got string/);
  assert.match(firstDifference(1, { type: 'NoneType', repr: 'None' }, t).reason, /NoneType/);
  assert.match(firstDifference(1, { type: 'bool', repr: 'True' }, t).reason, /bool/);
  assert.match(firstDifference(1, { float: 'nan' }, t).reason, /nan/);
  assert.equal(firstDifference(17, 17, { exact: true }), null);
  assert.ok(firstDifference(17, 17.0000001, { exact: true }));
  assert.equal(firstDifference(1e6, 1e6 + 0.5, { rel: 1e-6 }), null);
});

test('the driver: a syntax error, an exception with the learner’s frames only, print output capped, a missing function', () => {
  const syntax = run('def f(:\n    return 1\n', 'f', [[1]]);
  assert.equal(syntax.error.kind, 'syntax');
  assert.match(syntax.error.traceback, /File "<your code>", line 1[\s\S]*SyntaxError/);

  const raised = run('def f(a):\n    print("a is", a)\n    return g(a)\n\ndef g(a):\n    return a / 0\n', 'f', [
    [2],
    [3],
  ]);
  assert.equal(raised.error.kind, 'exception');
  assert.equal(raised.error.case, 0);
  assert.equal(raised.stdout, 'a is 2\n');
  assert.match(raised.error.traceback, /line 3, in f[\s\S]*line 6, in g[\s\S]*ZeroDivisionError: division by zero/);
  assert.doesNotMatch(raised.error.traceback, /_pe_|python-driver|exec\(/, 'the driver’s frames are shown');

  const loud = run('for i in range(100000):\n    print("x" * 50)\n');
  assert.equal(loud.stdout.length, 20000);
  assert.equal(loud.stdoutChars, 5100000);

  const missing = run('def other(x):\n    return x\n', 'f', [[1]]);
  assert.deepEqual(missing.error, { kind: 'missing', name: 'f' });

  const plain = run('def f():\n    return [1, 2.5, None, (3, 4), float("inf")]\n', 'f', [[]]);
  assert.deepEqual(plain.returns, [[1, 2.5, { type: 'NoneType', repr: 'None' }, [3, 4], { float: 'inf' }]]);

  // each run starts from a fresh namespace: nothing carries over
  run('leak = 42\n');
  assert.match(run('print(leak)\n').error.traceback, /NameError: name 'leak' is not defined/);
});

test('hostile code: the bridges to JavaScript are refused with a clear message, also after unhooking the guard', () => {
  for (const code of [
    'import js',
    'from js import fetch',
    'import pyodide',
    'import pyodide_js',
    'import _pyodide_core',
    'from pyodide.ffi import to_js',
    'import micropip',
    'import sys\nsys.meta_path.pop(0)\nimport js',
    'import sys\nsys.meta_path.clear()\nimport js',
  ]) {
    const r = run(`${code}\n`);
    assert.equal(r.error?.kind, 'exception', code);
    assert.match(r.error.traceback, /(ImportError|ModuleNotFoundError)/, code);
  }
  assert.match(
    run('import js\n').error.traceback,
    /not available here: .*sandbox without the page, the network or storage/,
  );
  // what the exercises need still imports after all that
  assert.equal(run('import math, json, itertools, functools\nprint(math.pi)\n').stdout, `${Math.PI}\n`);
});

test('the build refuses a bad definition, an unknown field and a code exercise in an aside', () => {
  const def = definitions['sinusoidal-row'];
  assert.match(checkCodeExercise({ ...def, solution: undefined }, caseModules).join(), /solution is missing/);
  assert.match(checkCodeExercise({ ...def, colour: 'red' }, caseModules).join(), /unknown field colour/);
  assert.match(
    checkCodeExercise({ ...def, cases: 'nope' }, caseModules).join(),
    /no case generator web\/code-cases\/nope\.js/,
  );
  assert.match(checkCodeExercise({ ...def, tolerance: { abs: -1 } }, caseModules).join(), /tolerance must be/);
  assert.match(
    checkCodeExercise({ ...def, signature: 'sinusoidal_row(pos)' }, caseModules).join(),
    /signature must be/,
  );
  const renderer = createRenderer({ codeDefinitions: definitions, caseModules });
  const block = 'id: x-code\ndefinition: sinusoidal-row\ntitle: T';
  assert.throws(
    () =>
      renderer.render(`::: aside A\n\`\`\`code-exercise\n${block}\n\`\`\`\n:::\n`, {
        file: 'f.md',
        section: 'sinusoidal',
      }),
    /code-exercise x-code is inside an aside/,
  );
  assert.throws(
    () => renderer.render(`\`\`\`code-exercise\n${block}\nextra: 1\n\`\`\`\n`, { file: 'f.md', section: 'sinusoidal' }),
    /unknown field extra/,
  );
  assert.throws(
    () => renderer.render(`\`\`\`code-exercise\n${block}\n\`\`\`\n`, { file: 'f.md', section: 'rope' }),
    /written for section sinusoidal, but section rope uses it/,
  );
  const html = renderer.render(`\`\`\`code-exercise\n${block}\n\`\`\`\n`, { file: 'f.md', section: 'sinusoidal' }).html;
  assert.match(html, /^<pe-code-exercise exercise="x-code"><p class="quiz-fallback">/);
  assert.equal(renderer.codeExercises['x-code'].cases, 'sinusoidal-row');
});

test('a checked code answer as xAPI: long-fill-in, the code as the response, no pattern; valid', async () => {
  const { answeredStatement } = await import('../../web/lib/reporting/xapi-statements.js');
  const validateStatement = createRequire(import.meta.url)('@learninglocker/xapi-validation').default;
  const def = definitions['t5-bucket'];
  const code = composeCode(def, def.solution);
  const s = answeredStatement({
    quizId: 'relative-bias-code-t5-bucket',
    kind: 'long-fill-in',
    question: 'Write T5’s bucket of one offset',
    response: code,
    correctPattern: null,
    correct: true,
    revealed: false,
    score: 1,
  });
  assert.deepEqual(validateStatement(s), []);
  assert.equal(s.object.definition.interactionType, 'long-fill-in');
  assert.equal('correctResponsesPattern' in s.object.definition, false);
  assert.equal(s.result.response, code.slice(0, 1000));
  assert.equal(s.result.score.raw, 1);
});

test('SCORM suspend_data with every question answered and the six solutions as code responses (measured)', async () => {
  const { encodeProgress, decodeProgress } = await import('../../web/lib/reporting/suspend-data.js');
  const { questionIds, codeExercises } = await import('../../web/gen/lesson-data.js');
  const { afterCheck } = await import('../../web/lib/reporting/progress.js');
  const pieces = (code) => code.match(/[\s\S]{1,300}/g);
  const progress = {};
  for (const id of questionIds) {
    const x = codeExercises[id];
    const response = x ? pieces(composeCode(x, x.solution)) : id.length % 2 ? [1] : ['2*pi*10000^(2*i/d)'];
    progress[id] = afterCheck(undefined, { right: true, response, seed: 12345 }).entry;
  }
  const full = encodeProgress(progress, 777, { limit: 64000 });
  const v12 = encodeProgress(progress, 777, { limit: 4096 });
  console.log(
    `# suspend_data with ${questionIds.length} questions answered, 6 holding code: ${full.length} characters (SCORM 2004 keeps 64,000); within SCORM 1.2's 4,096: ${v12.length} (typed answers and code dropped, credit kept)`,
  );
  assert.ok(full.length <= 64000);
  assert.ok(v12.length <= 4096);
  // 2004 resumes the code itself; 1.2 the credit
  const back = decodeProgress(full, { knownIds: questionIds }).progress;
  const id = Object.keys(codeExercises)[0];
  assert.equal(back[id].response.join(''), composeCode(codeExercises[id], codeExercises[id].solution));
  assert.equal(decodeProgress(v12, { knownIds: questionIds }).progress[id].credit, 1);
});

test("docs/embedding.md's code exercise of one's own: its solution passes on many seeds, the starter does not, and two typical wrong solutions fail at their first case with their slip", async () => {
  const { ownCodeExample } = await import('./author-page.mjs');
  const { compileCodeExercise } = await import('../../web/lib/questions/own-code-exercise.js');
  const { definition } = ownCodeExample();
  const { data, generator } = compileCodeExercise(definition, { pe });
  const judge = (body, seed) => {
    const cases = generator.cases(pe, seededRandom(seed));
    const r = run(
      composeCode(data, body),
      nameOf(data),
      cases.map((c) => c.args),
    );
    return judgeCases(cases, r.returns, data, r.error?.case ?? null);
  };
  for (let seed = 1; seed <= SEEDS; seed++) assert.equal(judge(data.solution, seed).right, true, `seed ${seed}`);
  assert.equal(judge(data.starter, 1).right, false);
  const wrong = [
    ['degrees', 'return [math.degrees(m * base ** (-2 * i / d)) for i in range(d // 2)]', 1],
    ['i-for-2i', 'return [m * base ** (-i / d) for i in range(d // 2)]', 2],
  ];
  for (const [slip, body, index] of wrong) {
    const v = judge(`import math\n${body}`, 3);
    assert.equal(v.failing.index, index, slip);
    assert.equal(v.failing.slip?.id, slip);
  }
  // pairs over the whole width: the list's length says it, no slip needed
  const v = judge('return [m * base ** (-2 * i / d) for i in range(d)]', 3);
  assert.match(v.failing.diff.reason, /expected a list of 4, got a list of 8/);
});
