// The custom elements web/widgets.js registers, read from its imports (one
// file per element, tag = file name), so the tests follow the list there.
import { readFileSync } from 'node:fs';

const source = readFileSync(new URL('../../web/widgets.js', import.meta.url), 'utf8');
export const tags = [...source.matchAll(/^import '\.\/widgets\/([a-z0-9-]+)\.js';$/gm)].map((m) => m[1]);
if (tags.length < 10) throw new Error(`web/widgets.js registers only ${tags.length} widgets?`);
