// The npm package as a consumer gets it (needs `npm run build`, which writes
// custom-elements.json, web/widgets.d.ts and the bundles):
// - custom-elements.json validates against the custom-elements-manifest
//   schema (ajv) and says exactly what each widget's static params, events
//   and the base class's CSS custom properties say;
// - `npm pack`, then `npm install --offline` of the tarball into a fresh
//   project: the compute API imports in Node and its sinusoidal table equals
//   PyTorch's; the tarball holds no tests, fixtures or build folders;
// - TypeScript (tsc --noEmit) accepts a consumer file that uses the tags,
//   attributes, events and the API, and rejects one that misuses them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv from 'ajv';
import { loadCase } from './fixture.mjs';
import { installPackedPackage, sinusoidalBothBuilds } from './installed-package.mjs';
import { brokenLinks } from './markdown-links.mjs';
import { widgetClasses, makeTagTable, withTagTable, TAG_TABLE_FILE } from '../../scripts/build/bundles.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'custom-elements.json'), 'utf8'));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

test('custom-elements.json validates against the custom-elements-manifest schema', () => {
  const schema = JSON.parse(readFileSync(require.resolve('custom-elements-manifest/schema.json'), 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  assert.ok(validate(manifest), JSON.stringify(validate.errors?.slice(0, 5), null, 1));
  assert.equal(pkg.customElements, 'custom-elements.json');
});

test("custom-elements.json says exactly what each widget's static params say", async () => {
  const { widgets, cssProperties } = await widgetClasses();
  const files = readdirSync(path.join(root, 'web/widgets')).filter((f) => f.endsWith('.js'));
  assert.deepEqual(
    widgets.map((w) => `${w.tag}.js`).sort(),
    files.sort(),
    'every widget file is registered by widgets.js',
  );
  const decls = new Map(manifest.modules.map((m) => [m.declarations[0].tagName, m]));
  assert.equal(decls.size, widgets.length);
  const hostCss = readFileSync(path.join(root, 'web/lib/drawing/theme.js'), 'utf8');
  for (const { tag, cls } of widgets) {
    const mod = decls.get(tag);
    assert.ok(mod, `${tag} is in the manifest`);
    const d = mod.declarations[0];
    assert.equal(mod.path, `web/widgets/${tag}.js`);
    assert.deepEqual(mod.exports, [
      { kind: 'custom-element-definition', name: tag, declaration: { name: d.name, module: mod.path } },
    ]);
    assert.ok(
      d.customElement && d.description && d.description === cls.description && !d.description.includes('\n'),
      `${tag}: one-line description`,
    );
    // attributes: the same names in the same order, defaults, types, ranges and options
    assert.deepEqual(
      d.attributes.map((a) => a.name),
      Object.keys(cls.params),
      `${tag}: attribute names`,
    );
    for (const a of d.attributes) {
      const spec = cls.params[a.name];
      const where = `${tag} ${a.name}`;
      if (spec.type === 'bool') assert.equal(a.default, undefined, where);
      else assert.equal(a.default, Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default), where);
      if (spec.type === 'enum') {
        assert.deepEqual(
          a.type.text.split(' | '),
          spec.options.map((o) => `'${o}'`),
          where,
        );
        assert.ok(a.description.includes(spec.options.join(', ')), where);
      } else {
        assert.equal(
          a.type.text,
          { int: 'number', float: 'number', bool: 'boolean', vector: 'string', string: 'string' }[spec.type],
          where,
        );
      }
      if (spec.type === 'int' || spec.type === 'float') {
        assert.ok(a.description.includes(`from ${spec.min} to ${spec.max}`), `${where}: range in ${a.description}`);
        if (spec.even) assert.match(a.description, /even integer/, where);
        if (spec.step !== undefined) assert.ok(a.description.includes(`step ${spec.step}`), where);
      }
      if (spec.type === 'vector' && spec.length)
        assert.ok(a.description.includes(`${spec.length} comma-separated numbers`), where);
      if (spec.label) assert.ok(a.description.startsWith(spec.label), where);
    }
    // events: the base class's and the widget's, and every event its file dispatches is declared
    const events = d.events.map((e) => e.name);
    assert.deepEqual(events, Object.keys({ ...cls.baseEvents, ...cls.events }), `${tag}: events`);
    const source = readFileSync(path.join(root, mod.path), 'utf8');
    for (const m of source.matchAll(/new CustomEvent\(\s*'([^']+)'/g))
      assert.ok(events.includes(m[1]), `${tag} dispatches ${m[1]}, which the manifest lists`);
    // CSS custom properties: every widget's (theme.js), then the widget's own
    // (sticky bars): each one its CSS reads from the page, and no other
    assert.deepEqual(
      d.cssProperties.map((c) => c.name),
      [...Object.keys(cssProperties), ...cls.cssProperties],
      `${tag}: CSS properties`,
    );
    const ownCss = source + readFileSync(path.join(root, 'web/lib/drawing/theme.js'), 'utf8');
    const read = new Set([...cls.styles.matchAll(/var\((--pe-[a-z-]+)/g)].map((m) => m[1]));
    if (/\$\{STICKY_TOP\}/.test(source)) read.add('--pe-sticky-top');
    for (const name of read) {
      const internal = new RegExp(`${name}:`).test(ownCss) && !Object.hasOwn(cssProperties, name);
      assert.ok(
        internal || d.cssProperties.some((c) => c.name === name),
        `${tag} reads ${name} from the page, and custom-elements.json does not list it`,
      );
    }
    // parts: each element it marks part="..." is listed
    const parts = [...source.matchAll(/\bpart(?:=|: )["']([a-z-]+)["']/g)].map((m) => m[1]);
    assert.deepEqual([...new Set(parts)].sort(), (d.cssParts ?? []).map((p) => p.name).sort(), `${tag}: CSS parts`);
  }
  assert.ok(
    decls.get('pe-exercise').declarations[0].cssParts.some((p) => p.name === 'solution-value'),
    'pe-exercise: part solution-value',
  );
  for (const tag of ['rope-clock', 'rope-scaling-lab'])
    assert.ok(
      decls.get(tag).declarations[0].cssProperties.some((c) => c.name === '--pe-sticky-top' && c.default === '0px'),
      `${tag}: --pe-sticky-top`,
    );
  assert.ok(decls.get('pe-quiz').declarations[0].events.some((e) => e.name === 'pe-quiz-answered'));
  assert.ok(
    decls
      .get('pe-heatmap')
      .declarations[0].cssProperties.some((c) => c.name === '--pe-accent' && c.default === '#245fc9'),
  );
  const { THEME_DEFAULTS } = await import('../../web/lib/drawing/theme.js');
  assert.deepEqual(
    Object.keys(cssProperties).sort(),
    Object.keys(THEME_DEFAULTS.light).sort(),
    'CSS_PROPERTIES lists exactly the properties with defaults',
  );
  assert.match(hostCss, /declare\(THEME_DEFAULTS\.light\)/, "the base class's :host declares the defaults");
});

test("docs/embedding.md's tag table is the one the manifest makes (it cannot drift)", () => {
  assert.equal(TAG_TABLE_FILE, 'docs/embedding.md');
  const doc = readFileSync(path.join(root, TAG_TABLE_FILE), 'utf8');
  assert.equal(
    withTagTable(doc, manifest),
    doc,
    `${TAG_TABLE_FILE} is out of date: run node scripts/build/bundles.mjs`,
  );
  const table = makeTagTable(manifest);
  for (const m of manifest.modules) {
    const d = m.declarations[0];
    const row = table.split('\n').find((l) => l.startsWith(`| \`<${d.tagName}>\``));
    assert.ok(row, `${d.tagName} has a row`);
    for (const a of d.attributes)
      assert.ok(row.includes(`\`${a.name}\``) && row.includes(a.description), `${d.tagName} ${a.name}`);
  }
  // a widget whose params changed makes a different table
  const changed = structuredClone(manifest);
  changed.modules[0].declarations[0].attributes[0].default = '65';
  assert.notEqual(withTagTable(doc, changed), doc);
});

test("the bundles give a site's bundler nothing to resolve: no new URL(..., import.meta.url), no Node built-in import", () => {
  // webpack, rspack (Docusaurus) and Vite copy or resolve every
  // new URL('literal', import.meta.url) and import('literal'); Docusaurus 3.10
  // failed on the core's wasm names before the bundles read import.meta.url once
  for (const file of ['dist/posenc-widgets.js', 'dist/anywidget.mjs']) {
    const code = readFileSync(path.join(root, file), 'utf8');
    assert.deepEqual(code.match(/new URL\([^()]*import\.meta\.url\s*\)/g), null, file);
    assert.equal(code.match(/import\.meta\.url/g)?.length, 1, `${file}: import.meta.url is read once, in the banner`);
    assert.deepEqual(code.match(/import\(\s*["'`](node:)?(fs|path|url|module)[^"'`]*["'`]\s*\)/g), null, file);
  }
});

test('web/widgets.d.ts puts every tag in HTMLElementTagNameMap', () => {
  const dts = readFileSync(path.join(root, 'web/widgets.d.ts'), 'utf8');
  const map = dts.slice(dts.indexOf('interface HTMLElementTagNameMap'));
  for (const m of manifest.modules) {
    const d = m.declarations[0];
    assert.ok(map.includes(`'${d.tagName}': ${d.name}Element;`), d.tagName);
  }
});

// the packed and installed package, shared by the tests below
let project;
let tarball;
let files;
let installed;
before(() => {
  installed = installPackedPackage();
  ({ project, tarball, files } = installed);
});
after(() => installed?.remove());

test('the tarball holds what a consumer needs and no tests, fixtures or build folders', () => {
  assert.match(path.basename(tarball), /^posenc-course-0\.2\.0\.tgz$/);
  for (const f of [
    'package.json',
    'web/posenc.js',
    'web/core/load.js',
    'web/posenc.d.ts',
    'web/widgets.js',
    'web/widgets.d.ts',
    'web/wasm/posenc-simd.wasm',
    'web/wasm/posenc-scalar.wasm',
    'web/wasm/posenc-train-simd.wasm',
    'web/workers/train-worker.js',
    'web/data/corpus.js',
    'web/data/lm-results.js',
    'web/data/t5-learned.js',
    'web/gen/lesson-data.js',
    'dist/posenc-widgets.js',
    'dist/posenc-widgets.d.ts',
    'dist/anywidget.mjs',
    'custom-elements.json',
    'LICENSE',
    'web/embed.html',
    'web/embed.js',
    'web/embed.css',
    'web/exercises/find-the-bug.js',
    // the code exercises: their cases, the Python worker, Pyodide and the editor
    'web/code-cases/sinusoidal-row.js',
    'web/workers/python-worker.js',
    'web/pyodide/pyodide.asm.wasm',
    'web/pyodide/python_stdlib.zip',
    'web/gen/code-editor.js',
    'docs/embedding.md',
    'docs/api.md',
    // posenc-course export: the command, its modules, the schemas and the page bundle
    'bin/posenc-course.mjs',
    'lms/export.mjs',
    'lms/zip.mjs',
    'lms/schemas/scorm12/imscp_rootv1p1p2.xsd',
    'lms/schemas/cmi5/CourseStructure.xsd',
    'dist/posenc-lms.js',
    'web/widgets-react.d.ts',
  ]) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }
  // docs/ goes whole (the README and the pages link each other), images included
  const bad = files.filter((f) =>
    /^(tests|build|cpp|lessons|scripts|node_modules|screenshots)\/|fixtures|\.test\.|^dist\/(lesson\.html|.*\.zip)$|dev\.html$/.test(
      f,
    ),
  );
  assert.deepEqual(bad, []);
  // what the README and the docs link to is in the package too
  const broken = files
    .filter((f) => f.endsWith('.md'))
    .flatMap((f) => brokenLinks(path.join(project, 'node_modules/posenc-course', f)).map((why) => `${f}: ${why}`));
  assert.deepEqual(broken, [], 'a Markdown file of the package links to what the package does not hold');
  assert.deepEqual(pkg.bin, { 'posenc-course': 'bin/posenc-course.mjs' });
  assert.match(readFileSync(path.join(root, pkg.bin['posenc-course']), 'utf8'), /^#!\/usr\/bin\/env node\n/);
  // every export target is in it
  for (const target of Object.values(pkg.exports).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)))) {
    assert.ok(files.includes(target.replace(/^\.\//, '')), `export target ${target}`);
  }
});

test('the installed package: the compute API and the bundles import in Node (no DOM, as server-side rendering does) and the sinusoidal table equals PyTorch', async () => {
  const c = loadCase('sinusoidal_L50_d6_base10000.txt');
  const script = `
    import { loadPosenc } from 'posenc-course';
    import manifest from 'posenc-course/custom-elements.json' with { type: 'json' };
    ${sinusoidalBothBuilds(c)}
    out.tags = manifest.modules.length;
    // what a server-side renderer does: import the one-file bundle with no DOM
    const bundle = await import('posenc-course/bundle');
    out.bundle = Array.from((await bundle.loadPosenc({ simd: false })).sinusoidal(...out.args));
    out.anywidget = typeof (await import('posenc-course/anywidget')).render;
    console.log(JSON.stringify(out));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const expected = c.tensors.out.values;
  assert.equal(out.anywidget, 'function');
  for (const build of ['simd', 'scalar', 'bundle']) {
    assert.equal(out[build].length, expected.length);
    const worst = Math.max(...out[build].map((v, i) => Math.abs(v - expected[i])));
    assert.ok(worst <= 1e-6, `${build}: largest difference ${worst}`);
  }
  assert.equal(out.tags, manifest.modules.length);
  // it ran from the installed copy, not from this checkout
  const resolved = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "console.log(import.meta.resolve('posenc-course'))"],
    { cwd: project, encoding: 'utf8' },
  ).stdout.trim();
  assert.equal(resolved, pathToFileURL(path.join(project, 'node_modules/posenc-course/web/posenc.js')).href);
});

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2022', 'dom'],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: [],
  },
};
const GOOD = `
import { loadPosenc, type Posenc } from 'posenc-course';
import type { PeQuizAnsweredDetail, RopeClockAttributes } from 'posenc-course/widgets';
import { loadPosenc as loadBundledCore } from 'posenc-course/bundle';

const clock = document.createElement('rope-clock');
const name: 'rope-clock' = clock.localName;
const attrs: RopeClockAttributes = { 'd-model': 16, sentence: 'the cat sat' };
for (const [k, v] of Object.entries(attrs)) clock.setAttribute(k, String(v));
const heatmap = document.createElement('pe-heatmap');
heatmap.setAttribute('max-len', '32');
heatmap.addEventListener('pe-update', (e) => console.log(e.detail.ms.toFixed(1)));
document.body.append(clock, heatmap);
document.createElement('pe-quiz').addEventListener('pe-quiz-answered', (e) => {
  const d: PeQuizAnsweredDetail = e.detail;
  console.log(d.quizId, d.correct, d.score + 1);
});
document.addEventListener('pe-quiz-answered', (e) => console.log(e.detail.quizId));
const pe: Posenc = await loadPosenc({ simd: false });
const table: Float32Array = pe.sinusoidal(8, 4, { base: 10000 });
const bundled: Posenc = await loadBundledCore();
console.log(name, table.length, bundled.simd);
`;
// each line must fail on its own
const BAD = [
  "const clock: import('posenc-course/widgets').RopeClockElement = document.createElement('pe-heatmap');",
  "import type { AlibiBiasAttributes } from 'posenc-course/widgets'; const a: AlibiBiasAttributes = { scale: 'log' };",
  "document.createElement('pe-quiz').addEventListener('pe-quiz-answered', (e) => { const s: string = e.detail.score; });",
  "import { loadPosenc } from 'posenc-course'; const pe = await loadPosenc(); pe.sinusoidal('8', 4);",
  "import { loadPosenc } from 'posenc-course'; await loadPosenc({ simd: 'yes' });",
];

// JSX: every tag in a .tsx file, its attributes checked, and train-lab's events typed.
// The project's JSX library supplies JSX.Element (here a one-line stand-in);
// the package adds the tags to JSX.IntrinsicElements.
const JSX_LIBRARY = 'declare global { namespace JSX { interface Element {} } }\nexport {};\n';
const GOOD_TSX = `
import 'posenc-course/widgets';
import type { TrainLabElement } from 'posenc-course/widgets';
export const page = (
  <pe-quiz-score scope="#week-2" class="score" data-week="2">
    <rope-clock d-model={16} sentence="the cat sat on the mat" first="cat" second="mat"></rope-clock>
    <pe-quiz quiz="alibi-farthest-head" id="q1" aria-label="A question of my own"></pe-quiz>
    <pe-exercise exercise="rope-angle-of-pair" key="e1"></pe-exercise>
    <train-lab steps={200} encodings="rope,alibi"></train-lab>
  </pe-quiz-score>
);
const lab: TrainLabElement = document.createElement('train-lab');
lab.addEventListener('train-lab-progress', (e) => console.log((e.detail.steps / e.detail.total).toFixed(2)));
lab.addEventListener('train-lab-done', (e) => console.log(e.detail.results[0].encoding, e.detail.results[0].acc1x?.toFixed(2)));
`;
const BAD_TSX = [
  '<rope-clock d-model={[16]}></rope-clock>',
  '<alibi-bias scale="log"></alibi-bias>',
  '<rope-clock frequency="2"></rope-clock>',
  "document.createElement('train-lab').addEventListener('train-lab-done', (e) => { const n: number = e.detail.results; });",
];

/**
 * Runs tsc once on the project `project` with `compilerOptions` (over
 * TSCONFIG's) and `sources` (file name -> text), all in one program: a
 * tsc start and a read of lib.dom.d.ts are most of its time. Returns its
 * output and its errors by file: { status, output, errors: Map<file, line[]> }.
 */
function tscProgram(sources, compilerOptions = {}) {
  for (const [file, text] of Object.entries(sources)) writeFileSync(path.join(project, file), text);
  const config = {
    compilerOptions: { ...TSCONFIG.compilerOptions, ...compilerOptions },
    files: Object.keys(sources),
  };
  writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(config));
  const run = () =>
    spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false'], {
      cwd: project,
      encoding: 'utf8',
    });
  let r = run();
  if (config.compilerOptions.ignoreDeprecations && /ignoreDeprecations/.test(r.stdout)) {
    // a TypeScript before 6 knows no 6.0 deprecations to ignore
    delete config.compilerOptions.ignoreDeprecations;
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(config));
    r = run();
  }
  const errors = new Map();
  for (const m of r.stdout.matchAll(/^(.+?)\((\d+),\d+\): error TS\d+/gm))
    errors.set(m[1], [...(errors.get(m[1]) ?? []), Number(m[2])]);
  return { status: r.status, output: r.stdout + r.stderr, errors };
}

// Every nodenext case, the good files and each misuse (in a file of its
// own), is one tsc program: each misuse must fail on its own line, and
// nothing else may fail. jsx: 'preserve' reaches only the .tsx files.
let nodenext;
const nodenextProgram = () => {
  if (nodenext) return nodenext;
  const sources = { 'good.mts': GOOD, 'jsx-library.d.ts': JSX_LIBRARY, 'page.tsx': GOOD_TSX };
  const misuses = {}; // file -> [the misuse, the line it is on]
  BAD.forEach((line, i) => {
    sources[`bad${i}.mts`] = `${line}\nexport {};\n`;
    misuses[`bad${i}.mts`] = [line, 1];
  });
  BAD_TSX.forEach((line, i) => {
    // a tag is the value of the export; a statement follows it on a line of its own
    sources[`bad${i}.tsx`] = line.startsWith('<')
      ? `import 'posenc-course/widgets';\nexport const x = ${line};\n`
      : `import 'posenc-course/widgets';\nexport const x = 0;\n${line}\n`;
    misuses[`bad${i}.tsx`] = [line, line.startsWith('<') ? 2 : 3];
  });
  nodenext = { ...tscProgram(sources, { jsx: 'preserve' }), misuses };
  // a file that fails but holds no misuse fails every test that reads this program
  const unexpected = [...nodenext.errors.keys()].filter((f) => !misuses[f]);
  assert.deepEqual(unexpected, [], nodenext.output);
  return nodenext;
};

/** Fails unless each misuse of `files` fails tsc, on its own line and nowhere else. */
function assertEachMisuseFails(files) {
  const { errors, misuses, output } = nodenextProgram();
  for (const file of files) {
    const [line, at] = misuses[file];
    assert.ok(errors.has(file), `tsc accepted: ${line}`);
    assert.deepEqual(
      [...new Set(errors.get(file))],
      [at],
      `the error is on the misuse (${file}, line ${at}): ${output}`,
    );
  }
}

test('TypeScript accepts a consumer of the tags, attributes, events and API', () => {
  const { errors, output } = nodenextProgram();
  assert.equal(errors.has('good.mts'), false, output);
});

test('TypeScript: a TSX file with the tags passes (attributes checked, train-lab events typed); each misuse fails on its line', () => {
  const { errors, output } = nodenextProgram();
  assert.equal(errors.has('page.tsx') || errors.has('jsx-library.d.ts'), false, output);
  assertEachMisuseFails(BAD_TSX.map((_, i) => `bad${i}.tsx`));
});

test('TypeScript with moduleResolution node (node10, which ignores "exports"): the subpaths still find their types', () => {
  const r = tscProgram(
    {
      'old.ts':
        "import type { RopeClockAttributes, PeQuizAnsweredDetail } from 'posenc-course/widgets';\nimport type { Posenc } from 'posenc-course/bundle';\nimport type {} from 'posenc-course/react';\nconst a: RopeClockAttributes = { 'd-model': 8 };\nconst d = {} as PeQuizAnsweredDetail;\nconst p = null as Posenc | null;\nconsole.log(a, d.quizId, p);\n",
    },
    { module: 'esnext', moduleResolution: 'node', ignoreDeprecations: '6.0' },
  );
  assert.equal(r.status, 0, r.output);
});

test('TypeScript rejects each misuse', () => {
  assertEachMisuseFails(BAD.map((_, i) => `bad${i}.mts`));
});
