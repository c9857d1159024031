// What the npm package ships besides web/ (run by scripts/build/build.sh and
// `npm run export`; needs web/wasm/ and web/gen/ from the build):
//   1. custom-elements.json: every tag, read from the widgets' own classes
//      (static tag, description, params, events) and the base class's
//      CSS_PROPERTIES, so it cannot drift from the code
//   2. web/widgets.d.ts: every tag in HTMLElementTagNameMap, with its
//      attributes and events, from the same data; and docs/embedding.md's table
//      of tags (between its widget-table markers), also from the manifest
//   3. dist/posenc-widgets.js: one ES module with every widget and both
//      lesson builds of the core inlined (no other request); it also exports
//      the compute API (loadPosenc, ...) of that same copy of the core, so a
//      page bundled by esbuild, webpack or Vite needs no asset file at all;
//      dist/posenc-widgets.d.ts types it
//   4. dist/anywidget.mjs: the same, exporting render({ model, el }) for
//      anywidget and MyST's {anywidget} directive
//   5. dist/posenc-lms.js: the same, starting first what an exported author's
//      page asks for (web/lib/reporting/lms-page.js: SCORM, cmi5 or nothing), for
//      `npx posenc-course export` (lms/export.mjs)
// The train lab stays out of both bundles: it needs the trainer builds
// (about 0.5 MB more) and a worker file next to it.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { embeddedBuildsSource, ESBUILD_OPTIONS } from '../export/export.mjs';
import { CORE_FUNCTIONS } from '../../web/lib/questions/core-functions.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const web = path.join(root, 'web');
export const BUNDLE_EXCLUDED = ['train-lab'];
/** The bundle `posenc-course export` inlines into an author's page (lms/export.mjs). */
export const LMS_BUNDLE = 'dist/posenc-lms.js';

// pass 1: the widget classes, read in Node: define() only needs these globals
// at import time (widgets touch the DOM when connected, never on import)
let classesOnce = null;
export function widgetClasses() {
  classesOnce ??= readClasses();
  return classesOnce;
}
async function readClasses() {
  const defined = [];
  const saved = { HTMLElement: globalThis.HTMLElement, customElements: globalThis.customElements };
  globalThis.HTMLElement ??= class {};
  globalThis.customElements ??= { get: () => undefined, define: () => {} };
  const define = globalThis.customElements.define;
  globalThis.customElements.define = (tag, cls) => defined.push({ tag, cls });
  try {
    // once per process: a module's defines run on its first import only
    await import(`${pathToFileURL(path.join(web, 'widgets.js')).href}`);
  } finally {
    globalThis.customElements.define = define;
    if (!saved.HTMLElement) delete globalThis.HTMLElement;
    if (!saved.customElements) delete globalThis.customElements;
  }
  // the properties and their light defaults, from theme.js's one list
  const { CSS_PROPERTIES, THEME_DEFAULTS, LAYOUT_PROPERTIES } = await import(
    pathToFileURL(path.join(web, 'lib/drawing/theme.js')).href
  );
  return {
    widgets: defined,
    cssProperties: CSS_PROPERTIES,
    defaults: THEME_DEFAULTS.light,
    layoutProperties: LAYOUT_PROPERTIES,
  };
}

const className = (tag) => tag.replace(/(^|-)([a-z])/g, (_, _d, c) => c.toUpperCase());
// attributes are strings: the value as the widget writes it back
const attrText = (spec, value) => (spec.type === 'vector' ? value.join(',') : String(value));

/** The manifest type text of one parameter. */
export function attributeType(spec) {
  switch (spec.type) {
    case 'int':
    case 'float':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'enum':
      return spec.options.map((o) => `'${o}'`).join(' | ');
    case 'vector':
      return 'string';
    default:
      return 'string';
  }
}

/** One line saying what values a parameter takes. */
export function attributeDescription(spec) {
  const parts = [];
  if (spec.label) parts.push(spec.label);
  if (spec.type === 'int' || spec.type === 'float') {
    let range = `${spec.type === 'int' ? (spec.even ? 'even integer' : 'integer') : 'number'} from ${spec.min} to ${spec.max}`;
    if (spec.step !== undefined) range += `, step ${spec.step}`;
    parts.push(range);
  } else if (spec.type === 'bool') parts.push('boolean attribute: present is true');
  else if (spec.type === 'enum') parts.push(`one of ${spec.options.join(', ')}`);
  else if (spec.type === 'vector') parts.push(`${spec.length ?? 'any number of'} comma-separated numbers`);
  else if (spec.patternMessage) parts.push(`text that ${spec.patternMessage}`);
  return parts.join(': ');
}

export function makeManifest({ widgets, cssProperties, defaults, layoutProperties }) {
  const modules = widgets.map(({ tag, cls }) => {
    const modulePath = `web/widgets/${tag}.js`;
    const events = { ...cls.baseEvents, ...cls.events };
    return {
      kind: 'javascript-module',
      path: modulePath,
      declarations: [
        {
          kind: 'class',
          customElement: true,
          name: className(tag),
          tagName: tag,
          description: cls.description,
          superclass: { name: 'PeElement', module: 'web/lib/base/pe-element.js' },
          attributes: Object.entries(cls.params).map(([name, spec]) => ({
            name,
            type: { text: attributeType(spec) },
            ...(spec.type === 'bool' ? {} : { default: attrText(spec, spec.default) }),
            description: attributeDescription(spec),
          })),
          events: Object.entries(events).map(([name, description]) => ({
            name,
            type: { text: 'CustomEvent' },
            description,
          })),
          cssProperties: [
            ...Object.entries(cssProperties).map(([name, description]) => ({
              name,
              description,
              ...(defaults[name] ? { default: defaults[name] } : {}),
            })),
            ...cls.cssProperties.map((name) => ({ name, ...layoutProperties[name] })),
          ],
          cssParts: Object.entries(cls.cssParts).map(([name, description]) => ({ name, description })),
        },
      ],
      exports: [
        { kind: 'custom-element-definition', name: tag, declaration: { name: className(tag), module: modulePath } },
      ],
    };
  });
  return { schemaVersion: '2.1.0', readme: 'README.md', modules };
}

// The tag table of docs/embedding.md ("The widgets and their attributes"),
// written between these markers from the manifest
export const TAG_TABLE_FILE = 'docs/embedding.md';
export const TAG_TABLE_MARKERS = [
  "<!-- widget-table: generated from custom-elements.json by scripts/build/bundles.mjs; edit the widgets' static params instead -->",
  '<!-- /widget-table -->',
];

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The table of tags, attributes, events and CSS custom properties (docs/embedding.md). */
export function makeTagTable(manifest) {
  const decls = manifest.modules.map((m) => m.declarations[0]);
  // events every tag fires (the base class's) are said once, below the table
  const common = decls[0].events.filter((e) => decls.every((d) => d.events.some((x) => x.name === e.name)));
  const own = (d) => d.events.filter((e) => !common.some((c) => c.name === e.name));
  const attribute = (a) =>
    `\`${a.name}\`${a.default === undefined ? '' : ` (${a.default === '' ? 'empty' : cell(a.default)})`}: ${cell(a.description)}`;
  const rows = decls.map(
    (d) =>
      `| \`<${d.tagName}>\` | ${d.attributes.map(attribute).join('<br>') || 'none'} | ${own(d)
        .map((e) => `\`${e.name}\`: ${cell(e.description)}`)
        .join('<br>')} | ${cell(d.description)} |`,
  );
  return [
    '| tag | attributes (default): values | its own events | shows |',
    '|---|---|---|---|',
    ...rows,
    '',
    `Every tag also fires ${common.map((e) => `\`${e.name}\` (${e.description.replace(/\.$/, '')})`).join(' and ')}, and takes these CSS custom properties (light theme defaults): ${decls[0].cssProperties.map((c) => `\`${c.name}\` (${c.description.replace(/\.$/, '').toLowerCase()}${c.default ? `; \`${c.default}\`` : ''})`).join(', ')}.`,
  ].join('\n');
}

/** A document (docs/embedding.md's text) with its tag table replaced by one made from the manifest. */
export const withTagTable = (doc, manifest) => withBlock(doc, TAG_TABLE_MARKERS, makeTagTable(manifest));

// doc with the text between the two markers replaced by `body`
function withBlock(doc, [open, close], body) {
  const start = doc.indexOf(open);
  const end = doc.indexOf(close);
  if (start < 0 || end < start) throw new Error(`bundles: ${TAG_TABLE_FILE} has no ${open} ... ${close} block`);
  return `${doc.slice(0, start + open.length)}\n${body}\n${doc.slice(end)}`;
}

// web/lesson.css's colours of highlighted code: theme.js's pageCodeCss(), the
// palette pe-live-output's code is drawn in, so the lesson's code blocks and
// the widget's cannot drift apart (tests/js/contrast.test.mjs holds the block to it)
export const CODE_COLORS_FILE = 'web/lesson.css';
export const CODE_COLORS_MARKERS = [
  '/* code-colors:start (web/lib/drawing/theme.js, CODE_CSS; written by scripts/build/bundles.mjs) */',
  '/* code-colors:end */',
];
/** A stylesheet's text (web/lesson.css) with its code colours block replaced by `block`. */
export function withCodeColors(cssText, block) {
  const [open, close] = CODE_COLORS_MARKERS;
  const start = cssText.indexOf(open);
  const end = cssText.indexOf(close);
  if (start < 0 || end < start) throw new Error(`bundles: ${CODE_COLORS_FILE} has no ${open} ... ${close} block`);
  return `${cssText.slice(0, start + open.length)}\n${block}\n${cssText.slice(end)}`;
}

// docs/embedding.md's table of the functions an author's exercise may call,
// from web/lib/questions/core-functions.js, the one list of them
export const FUNCTION_TABLE_MARKERS = [
  '<!-- core-functions:start (web/lib/questions/core-functions.js; tests/js/own-exercise.test.mjs holds this table to it) -->',
  '<!-- core-functions:end -->',
];
export function makeFunctionTable(functions) {
  const rows = Object.entries(functions).map(
    ([name, f]) =>
      `| \`${name}(${f.params.map((p, k) => (k >= f.params.length - (f.optional ?? 0) ? `${p}?` : p)).join(', ')})\` | ${f.about} |`,
  );
  return ['| function | the value |', '|---|---|', ...rows].join('\n');
}
export const withFunctionTable = (doc, functions) =>
  withBlock(doc, FUNCTION_TABLE_MARKERS, makeFunctionTable(functions));

// JSX: the attributes a tag takes in a .tsx file, besides its own
const JSX_TYPES = [
  '/** What JSX accepts on any tag besides its own attributes. */',
  'export type PosencJsxProps<A> = A & {',
  '  children?: unknown;',
  '  key?: string | number | bigint | null;',
  '  ref?: unknown;',
  '  id?: string;',
  '  class?: string;',
  '  className?: string;',
  '  style?: unknown;',
  '  slot?: string;',
  '  hidden?: boolean;',
  '  title?: string;',
  '  lang?: string;',
  '  tabIndex?: number;',
  '  [data: `data-${string}`]: unknown;',
  '  [aria: `aria-${string}`]: unknown;',
  '};',
  '',
];

// events a tag fires on itself only (they do not bubble), typed on its class
const TRAIN_RESULT =
  '{ encoding: string; acc1x: number | null; acc2x: number | null; acc4x: number | null; reason2x?: string; reason4x?: string; finalLoss: number; solved: { step: number; ms: number } | null; loss1x?: number | null; loss2x?: number | null; loss4x?: number | null; val?: number[] }';
const ELEMENT_EVENTS = {
  'train-lab': [
    "  addEventListener(type: 'train-lab-progress', listener: (this: TrainLabElement, ev: CustomEvent<{ steps: number; total: number }>) => any, options?: boolean | AddEventListenerOptions): void;",
    `  addEventListener(type: 'train-lab-done', listener: (this: TrainLabElement, ev: CustomEvent<{ results: ${TRAIN_RESULT}[] }>) => any, options?: boolean | AddEventListenerOptions): void;`,
    '  addEventListener<K extends keyof PeElementEventMap>(type: K, listener: (this: PeElement, ev: PeElementEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;',
    '  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;',
  ],
};

// React 19's types keep JSX in the react module: posenc-course/react's types
// put the tags there (a separate file, so a project without React's types
// loses nothing)
export const REACT_TYPES = `// Generated by scripts/build/bundles.mjs: the tags in React's JSX (React 19 types).
//   import type {} from 'posenc-course/react';   (once, in any .ts or .tsx file)
import type { PosencIntrinsicElements } from './widgets.js';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements extends PosencIntrinsicElements {}
  }
}
`;

const TS_TYPES = {
  int: 'number | string',
  float: 'number | string',
  bool: 'boolean | string',
  vector: 'string | number[]',
  string: 'string',
};

export function makeTypes(manifest, widgets) {
  const byTag = new Map(widgets.map((w) => [w.tag, w.cls]));
  const lines = [
    "// Generated by scripts/build/bundles.mjs from the widgets' static params: do not edit.",
    '// Every tag of web/widgets.js (and the bundles) in HTMLElementTagNameMap.',
    '',
    '/** Detail of pe-quiz-answered (web/widgets/pe-quiz.js). */',
    '/** An answer checked in <pe-quiz> (kind "choice") or <pe-exercise> (kind "numeric" or "fill-in"). */',
    'export interface PeQuizAnsweredDetail {',
    '  /** The question: a quiz id or an exercise id. */',
    '  quizId: string;',
    "  kind: 'choice' | 'numeric' | 'fill-in';",
    '  /** A quiz: the chosen options\' texts. An exercise: the number, or the typed parts joined with "[,]". */',
    '  response: string[] | string;',
    '  /** The response is right (also after Show solution). */',
    '  correct: boolean;',
    '  /** The credit this check earned: 1 at the first try, a third less per earlier miss, 0 when wrong or revealed. */',
    '  score: number;',
    "  /** The question's best credit so far. */",
    '  credit: number;',
    '  attempts: number;',
    '  revealed: boolean;',
    '  /** Milliseconds since the question (or the last try) was shown. */',
    '  latencyMs: number;',
    '  /** A quiz: the picks and the right options, as authored indices. */',
    '  choices?: number[];',
    '  correctChoices?: number[];',
    '  /** An exercise: what was typed, per part. */',
    '  texts?: string[];',
    '  [key: string]: unknown;',
    '}',
    '',
    '/** Events of every widget (the base class fires pe-update and pe-state). */',
    'export interface PeElementEventMap extends HTMLElementEventMap {',
    "  'pe-update': CustomEvent<{ ms: number }>;",
    '}',
    '',
    '/** The base class of every widget. */',
    'export declare class PeElement extends HTMLElement {',
    '  /** Milliseconds the last update took. */',
    '  readonly lastUpdateMs: number;',
    '  addEventListener<K extends keyof PeElementEventMap>(type: K, listener: (this: PeElement, ev: PeElementEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;',
    '  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;',
    '  removeEventListener<K extends keyof PeElementEventMap>(type: K, listener: (this: PeElement, ev: PeElementEventMap[K]) => any, options?: boolean | EventListenerOptions): void;',
    '  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;',
    '}',
    '',
  ];
  const map = [];
  for (const mod of manifest.modules) {
    const d = mod.declarations[0];
    const cls = byTag.get(d.tagName);
    lines.push(`/** Attributes of <${d.tagName}>. */`, `export interface ${d.name}Attributes {`);
    for (const [name, spec] of Object.entries(cls.params)) {
      const t = spec.type === 'enum' ? spec.options.map((o) => `'${o}'`).join(' | ') : TS_TYPES[spec.type];
      lines.push(
        `  /** ${attributeDescription(spec)}${spec.type === 'bool' ? '' : ` (default ${attrText(spec, spec.default)})`} */`,
        `  '${name}'?: ${t};`,
      );
    }
    lines.push(
      '}',
      '',
      `/** <${d.tagName}>: ${d.description} */`,
      `export declare class ${d.name}Element extends PeElement {`,
      `  readonly localName: '${d.tagName}';`,
      ...(ELEMENT_EVENTS[d.tagName] ?? []),
    );
    lines.push('}', '');
    map.push(`    '${d.tagName}': ${d.name}Element;`);
  }
  lines.push(
    ...XAPI_TYPES,
    '/** The attributes of each tag, by tag name (for typed helpers in a host page). */',
    'export interface PosencWidgetAttributes {',
    ...manifest.modules.map((m) => `  '${m.declarations[0].tagName}': ${m.declarations[0].name}Attributes;`),
    '}',
    '',
    ...JSX_TYPES,
    '/** Each tag in JSX: its attributes and the common ones (for JSX.IntrinsicElements; React: posenc-course/react). */',
    'export interface PosencIntrinsicElements {',
    ...manifest.modules.map(
      (m) => `  '${m.declarations[0].tagName}': PosencJsxProps<${m.declarations[0].name}Attributes>;`,
    ),
    '}',
    '',
    'declare global {',
    "  // JSX without React types (Preact, Solid, TypeScript's jsx: preserve) reads the global namespace",
    '  namespace JSX {',
    '    interface IntrinsicElements extends PosencIntrinsicElements {}',
    '  }',
    '  interface HTMLElementTagNameMap {',
    ...map,
    '  }',
    '  // bubbling, composed events: a page can listen on any ancestor or on document',
    '  interface GlobalEventHandlersEventMap {',
    "    'pe-quiz-answered': CustomEvent<PeQuizAnsweredDetail>;",
    "    'pe-state': CustomEvent<{ name: string; value: unknown }>;",
    '  }',
    '}',
    '',
  );
  return lines.join('\n');
}

// configureXapi, exported by web/widgets.js (web/lib/reporting/xapi.js says the rest)
const XAPI_TYPES = [
  '/** Where the xAPI statements go (docs/embedding.md, "Sending to an LRS"); what is left out keeps its value. */',
  'export interface XapiOptions {',
  "  /** The LRS's xAPI endpoint, http(s); null: no LRS, in-page events only. */",
  '  endpoint?: string | null;',
  "  /** The Authorization header value ('Basic …', or a launch's token), or Basic credentials. */",
  '  auth?: string | { username: string; password: string } | null;',
  '  /** The learner, an xAPI Agent: { name?, and one of mbox, mbox_sha1sum, openid, account }. */',
  '  actor?: Record<string, unknown> | null;',
  "  /** The lesson's IRI; every question's IRI lies under it. */",
  '  activityBase?: string;',
  '  /** A UUID; else one kept per browser. */',
  '  registration?: string | null;',
  "  /** The lesson's language tag (default en-US). */",
  '  language?: string;',
  '  /** context.platform (default posenc-course). */',
  '  platform?: string;',
  '}',
  '/** Sets where statements go; bad options are named in errors (and sending is off). */',
  'export declare function configureXapi(options: XapiOptions): { ok: boolean; errors: string[]; sending: boolean };',
  '/** What configureXapi set (auth hidden), and how sending goes. */',
  'export declare function xapiConfig(): { endpoint: string | null; auth: string | null; actor: Record<string, unknown> | null; registration: string | null; language: string; platform: string; activityBase: string; status: { state: string; message: string; pending: number; endpoint: string | null } };',
  '',
];

// The anywidget front end lives in web/lib/reporting/anywidget-front.js; the bundle
// re-exports it after registering the widgets; the model's tag and attributes
// flow in, the learner's state, answers and score flow out.
const ANYWIDGET_SOURCE = `export * from './lib/reporting/anywidget-front.js';\nexport { default } from './lib/reporting/anywidget-front.js';\n`;

const BUNDLE_TYPES = `// Generated by scripts/build/bundles.mjs. dist/posenc-widgets.js registers every
// tag but train-lab and exports the compute API of its own inlined core.
export * from '../web/posenc.js';
export type * from '../web/widgets.js';
export { configureXapi, xapiConfig } from '../web/widgets.js';
import '../web/widgets.js';
`;

// A bundler that builds the consumer's site (Vite, webpack, rspack in
// Docusaurus, Rollup with an assets plugin) treats every
// `new URL('...', import.meta.url)` as a file to copy, and fails on the
// core's: web/core/load.js names '../wasm/posenc-<variant>.wasm' and
// Emscripten's glue names 'posenc-<variant>.wasm', none of them next to the
// bundle in dist/. The bundles fetch nothing (both builds are inlined), so
// import.meta.url is read once, where no such pattern can see it.
export const NO_ASSET_URLS = {
  define: { ...ESBUILD_OPTIONS.define, 'import.meta.url': '__posencModuleUrl' },
  banner: { js: 'const __posencModuleUrl = import.meta.url;' },
};

async function bundle(widgets, tail, out, head = '') {
  const tags = widgets.map((w) => w.tag).filter((t) => !BUNDLE_EXCLUDED.includes(t));
  // the widgets are defined only where there is a DOM, so a server-side
  // renderer (Docusaurus, Next, Astro) may import the bundle and get the API
  // the lesson's questions and samples are lent by id, as widgets.js lends
  // them (web/lib/lesson/lesson-registry.js): inlined, evaluated on the first ask
  const entry = `${embeddedBuildsSource(['simd', 'scalar'])}
    import { hasLesson, registerLessonLoader } from './lib/lesson/lesson-registry.js';
    if (!hasLesson()) registerLessonLoader(() => import('./gen/lesson-data.js'));
    ${head}
    if (typeof HTMLElement === 'function' && typeof customElements === 'object') {
      await Promise.all([${tags.map((t) => `import('./widgets/${t}.js')`).join(', ')}]);
    }
    ${tail}`;
  const result = await build({
    stdin: { contents: entry, resolveDir: web, sourcefile: path.basename(out), loader: 'js' },
    ...ESBUILD_OPTIONS,
    ...NO_ASSET_URLS,
  });
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, result.outputFiles[0].contents);
  return { out, bytes: result.outputFiles[0].contents.length, tags };
}

export async function buildAll() {
  const classes = await widgetClasses();
  const { widgets } = classes;
  const manifest = makeManifest(classes);
  writeFileSync(path.join(root, 'custom-elements.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(web, 'widgets.d.ts'), makeTypes(manifest, widgets));
  writeFileSync(path.join(web, 'widgets-react.d.ts'), REACT_TYPES);
  const tablePath = path.join(root, TAG_TABLE_FILE);
  const doc = readFileSync(tablePath, 'utf8');
  const updated = withFunctionTable(withTagTable(doc, manifest), CORE_FUNCTIONS);
  if (updated !== doc) writeFileSync(tablePath, updated);
  const { pageCodeCss } = await import(pathToFileURL(path.join(web, 'lib/drawing/theme.js')).href);
  const cssPath = path.join(root, CODE_COLORS_FILE);
  const css = readFileSync(cssPath, 'utf8');
  const withColors = withCodeColors(css, pageCodeCss());
  if (withColors !== css) writeFileSync(cssPath, withColors);
  const a = await bundle(
    widgets,
    "export * from './posenc.js'; export { configureXapi, xapiConfig } from './lib/reporting/xapi.js';",
    path.join(root, 'dist/posenc-widgets.js'),
  );
  writeFileSync(path.join(root, 'dist/posenc-widgets.d.ts'), BUNDLE_TYPES);
  const b = await bundle(widgets, ANYWIDGET_SOURCE, path.join(root, 'dist/anywidget.mjs'));
  // an author's page as one file or an LMS package (lms/export.mjs): the
  // adapter its settings name starts before any widget is defined
  const c = await bundle(
    widgets,
    '',
    path.join(root, LMS_BUNDLE),
    "const { startExportedPage } = await import('./lib/reporting/lms-page.js'); await startExportedPage();",
  );
  return [a, b, c];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const { out, bytes } of await buildAll())
    console.log(`bundles: ${path.relative(root, out)} (${(bytes / 1024).toFixed(0)} KiB)`);
  console.log('bundles: custom-elements.json, web/widgets.d.ts');
}
