// `npm run export`: the whole lesson as one self-contained file,
// dist/lesson.html, that works opened straight from disk (file://), with no
// server and no network: for an LMS that takes a single HTML file.
//
// Passes:
//   1. bundle web/lesson.js (the page script, every widget, the lesson data,
//      every sample runner and quiz generator) with esbuild into one ES
//      module; both wasm builds go in as base64 and are handed to posenc.js
//      with registerEmbeddedBuild, so nothing is fetched
//   2. inline lesson.css and the favicon; the fonts are the system's (the
//      page loads none), MathML needs no font file
//   3. dist/lesson.html = web/index.html with those inlined
// Assumes `npm run build` has run (web/index.html, web/gen/, web/wasm/).
//
//   node scripts/export/export.mjs [--sections rope,long-context] [--activity-base <IRI>] [--out dist/lesson.html]
//
// --sections: a lesson of those sections only, built in memory by
// scripts/build/build-lesson.mjs (their text, quizzes, exercises, samples and
// generators; the others' are not in the file); web/ is not written.
// --activity-base: the IRI under which xAPI statements (and SCORM 2004
// interaction ids) name the lesson and its questions (configureXapi).
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUILD_VARIANTS } from '../../web/posenc.js';
import { buildLesson } from '../build/build-lesson.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const web = path.join(root, 'web');

/**
 * How every one-file build of the page is bundled (the export, and the
 * widget bundles of scripts/build/bundles.mjs): one minified ES module, in memory.
 * core/load.js's fetch paths are never taken once the builds are registered
 * (NO_GLUE_IMPORTS keeps its glue imports out); Node-only imports are behind isNode.
 */
// core/load.js names each build's glue with import('../wasm/posenc-<variant>.js')
// for site bundlers; these bundles register their builds with
// registerEmbeddedBuild instead, so those imports become a stub rather than a
// second copy of every glue module.
const NO_GLUE_IMPORTS = {
  name: 'posenc-no-glue-imports',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/wasm\/posenc-[a-z-]+\.js$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, namespace: 'posenc-no-glue' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'posenc-no-glue' }, (args) => ({
      contents: `export default () => { throw new Error('${args.path} is not in this bundle'); };`,
      loader: 'js',
    }));
  },
};
export const ESBUILD_OPTIONS = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  write: false,
  logLevel: 'silent',
  external: ['node:fs/promises'],
  plugins: [NO_GLUE_IMPORTS],
  // a one-file build carries no Python runtime: <pe-code-exercise> says
  // running code needs the online lesson (web/lib/python/python-runner.js)
  define: { POSENC_ONE_FILE: 'true' },
};

/**
 * Module source (resolved from web/) that hands the given wasm builds to
 * posenc.js with registerEmbeddedBuild, each .wasm inlined as base64, so
 * nothing is fetched; also used by scripts/build/bundles.mjs.
 */
export function embeddedBuildsSource(variants) {
  const wasm = (variant) => readFileSync(path.join(web, `wasm/posenc-${variant}.wasm`)).toString('base64');
  return `
    import { registerEmbeddedBuild } from './posenc.js';
    ${variants.map((v, i) => `import factory${i} from './wasm/posenc-${v}.js';`).join('\n    ')}
    const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    ${variants.map((v, i) => `registerEmbeddedBuild('${v}', factory${i}, bytes(${JSON.stringify(wasm(v))}));`).join('\n    ')}
  `;
}

/**
 * The module code that sets the xAPI activity IRI base (configureXapi), run
 * before the lesson's script; '' for none. Checks the IRI with xapi.js's own
 * rule, so a bad one fails here and not in the learner's browser.
 */
export async function activityBasePrelude(activityBase) {
  if (activityBase == null) return '';
  const { configureXapi } = await import('../../web/lib/reporting/xapi.js');
  const { errors } = configureXapi({ activityBase });
  if (errors.length) throw new Error(`--activity-base: ${errors.join(' ')}`);
  return `
    import { configureXapi } from './lib/reporting/xapi.js';
    configureXapi({ activityBase: ${JSON.stringify(activityBase)} });`;
}

// The lesson's data module served from memory (a lesson of some sections),
// its lazy imports still resolved from web/gen/
function lessonDataFrom(data) {
  const file = path.join(web, 'gen/lesson-data.js');
  return {
    name: 'posenc-lesson-data',
    setup(b) {
      b.onResolve({ filter: /gen\/lesson-data\.js$/ }, (args) =>
        path.resolve(args.resolveDir, args.path) === file ? { path: file, namespace: 'posenc-lesson-data' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'posenc-lesson-data' }, () => ({
        contents: data,
        resolveDir: path.dirname(file),
        loader: 'js',
      }));
    },
  };
}

// A lesson of some sections carries the lesson's text (web/data/corpus.js,
// the text lab's corpus, 127 KB of every section's prose) only if one of its
// labs trains on it; otherwise the module is a stub, and a lab given
// task="text" without a corpus URL says the text is not in this file.
function corpusOnlyIfUsed(page) {
  if (/<train-lab\b[^>]*\stask="text"/.test(page)) return [];
  return [
    {
      name: 'posenc-no-corpus',
      setup(b) {
        b.onResolve({ filter: /data\/corpus\.js$/ }, (args) => ({ path: args.path, namespace: 'posenc-no-corpus' }));
        b.onLoad({ filter: /.*/, namespace: 'posenc-no-corpus' }, () => ({
          contents: `throw new Error('this file was exported without the sections that train on the lesson\\'s text; give the lab a corpus URL');`,
          loader: 'js',
        }));
      },
    },
  ];
}

// `prelude`: module code run before the lesson's script (its imports resolve
// from web/), e.g. the SCORM adapter of scripts/export/export-scorm.mjs; `sections`:
// section ids ("a,b" or a list) for a lesson of those only (null: the whole
// of web/index.html); `activityBase`: the xAPI IRI base
export async function exportLesson({
  out = path.join(root, 'dist/lesson.html'),
  prelude = '',
  sections = null,
  activityBase = null,
} = {}) {
  const variants = BUILD_VARIANTS;
  for (const f of ['index.html', 'gen/lesson-data.js', ...variants.map((v) => `wasm/posenc-${v}.wasm`)]) {
    if (!existsSync(path.join(web, f))) throw new Error(`export: web/${f} is missing; run npm run build first`);
  }
  const chosen = sections == null ? null : await buildLesson({ sections });
  // 1. the script: an entry that registers both builds, then runs the page
  // the page shows the lesson: registered before the prelude (an LMS
  // adapter) reads its questions and sections (web/lib/lesson/lesson-registry.js)
  const entry = `
    ${embeddedBuildsSource(variants)}
    import * as lessonData from './gen/lesson-data.js';
    import { registerLesson } from './lib/lesson/lesson-registry.js';
    registerLesson(lessonData);
    ${await activityBasePrelude(activityBase)}
    ${prelude}
    await import('./lesson.js');
  `;
  const options = chosen
    ? {
        ...ESBUILD_OPTIONS,
        plugins: [...ESBUILD_OPTIONS.plugins, lessonDataFrom(chosen.data), ...corpusOnlyIfUsed(chosen.page)],
      }
    : ESBUILD_OPTIONS;
  const result = await build({
    stdin: { contents: entry, resolveDir: web, sourcefile: 'export-entry.js', loader: 'js' },
    ...options,
  });
  for (const w of result.warnings) {
    if (!/dynamic import|import\.meta|node:fs/.test(w.text)) console.warn(`export: ${w.text}`);
  }
  // </script> inside the code would end the inline script early
  const script = result.outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

  // 2. styles and icon
  const css = readFileSync(path.join(web, 'lesson.css'), 'utf8').replace(/<\/(style)/gi, '<\\/$1');
  const icon = `data:image/png;base64,${readFileSync(path.join(web, 'favicon.png')).toString('base64')}`;

  // 3. the page
  let html = chosen ? chosen.page : readFileSync(path.join(web, 'index.html'), 'utf8');
  const replaceOnce = (from, to) => {
    if (!html.includes(from)) throw new Error(`export: web/index.html has no ${from}`);
    html = html.replace(from, () => to);
  };
  replaceOnce(
    '<link rel="icon" href="favicon.png" type="image/png">',
    `<link rel="icon" href="${icon}" type="image/png">`,
  );
  replaceOnce('<link rel="stylesheet" href="lesson.css">', `<style>\n${css}</style>`);
  replaceOnce('<script type="module" src="lesson.js"></script>', '');
  // the script goes last, so the text shows while it parses
  replaceOnce('</body>', `<script type="module">\n${script}\n</script>\n</body>`);
  if (/\s(src|href)="(?!#|data:|https?:)[^"]+"/.test(html.replace(/<script[\s\S]*?<\/script>/g, ''))) {
    const m = html.match(/\s(src|href)="(?!#|data:|https?:)[^"]+"/);
    throw new Error(`export: a relative reference is left in the page: ${m[0]}`);
  }
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, html);
  return {
    out,
    bytes: Buffer.byteLength(html),
    sections: chosen ? chosen.sections.map((s) => ({ id: s.id, title: s.title })) : null,
  };
}

/**
 * The exports' command lines: `--flag value` or `--flag=value`. `spec` maps
 * each flag to [option name, reader of its text], or [option name] for a
 * switch that takes no value; `usage` lists them for an unknown option.
 */
export function parseOptions(argv, { command, spec, usage }) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.split('=', 2);
    if (!Object.hasOwn(spec, flag)) throw new Error(`${command}: unknown option ${arg} (options: ${usage})`);
    const [name, read] = spec[flag];
    if (!read) {
      opts[name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`${command}: ${flag} needs a value`);
    opts[name] = read(value);
  }
  return opts;
}

const text = (value) => value;

const parseArgs = (argv) =>
  parseOptions(argv, {
    command: 'export',
    spec: {
      '--sections': ['sections', text],
      '--activity-base': ['activityBase', text],
      '--out': ['out', (v) => path.resolve(v)],
    },
    usage: '--sections <ids>, --activity-base <IRI>, --out <file>',
  });

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { out, bytes, sections } = await exportLesson(parseArgs(process.argv.slice(2)));
    const which = sections ? `sections ${sections.map((s) => s.id).join(', ')}` : 'the whole lesson';
    console.log(
      `export: ${path.relative(root, out)} (${(bytes / 1024).toFixed(0)} KiB, ${which}), one file; open it from disk`,
    );
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
