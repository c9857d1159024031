// An author's page (HTML, or Markdown: lms/markdown.mjs) made into one
// self-contained file for `posenc-course export` (lms/export.mjs): the
// page's markup as written (its text, its widgets, its questions of its own),
// its local stylesheets inlined as <style>, its local images and icon as
// data: URLs, and one module script: the package's prebuilt
// dist/posenc-lms.js (every widget but <train-lab>, both builds of the core
// inlined, and the LMS adapter its settings name, web/lib/reporting/lms-page.js). It
// works opened from disk, in an LMS, with no server and no network.
//
// The page's own scripts cannot come along (they import the package by its
// name, which only a bundler resolves): each <script> is dropped and named
// in `dropped`, except the JSON of a question written inside an element.
// References the file cannot hold (another page, a remote stylesheet) are
// kept and named in `notes`.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { markdownPage } from './markdown.mjs';
import { escapeXml } from './manifests.mjs';

const MIME = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.avif': 'image/avif',
};
const isLocal = (ref) => !/^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i.test(ref) && ref.trim() !== '';
const attr = (tag, name) => new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
const attrValue = (tag, name) => {
  const m = attr(tag, name);
  return m ? (m[2] ?? m[3] ?? m[4]) : null;
};

/** The page's text as HTML, and its title: `file` is .html (or .htm) or .md. */
export function readPage(file) {
  if (!existsSync(file)) throw new Error(`export: there is no page ${file}`);
  const text = readFileSync(file, 'utf8');
  if (/\.(md|markdown)$/i.test(file)) {
    const { html, title } = markdownPage(text, path.basename(file));
    const name = title ?? path.basename(file).replace(/\.[^.]+$/, '');
    return {
      html: `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeXml(name)}</title>\n</head>\n<body>\n<main>\n${html}\n</main>\n</body>\n</html>\n`,
      markdown: true,
    };
  }
  if (!/\.html?$/i.test(file)) throw new Error(`export: ${file} is not an .html or .md page`);
  return { html: text, markdown: false };
}

/** The questions an HTML page holds: [{ tag, id, json, markup }] (json: the text of a question's JSON, or null). */
export function questionsOf(html) {
  const out = [];
  const re = /<(pe-quiz|pe-exercise|pe-code-exercise)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;
  for (const m of html.matchAll(re)) {
    const tag = m[1].toLowerCase();
    const id = attrValue(m[2], tag === 'pe-quiz' ? 'quiz' : 'exercise') ?? '';
    const json = /<script\b[^>]*type\s*=\s*["']?application\/json["']?[^>]*>([\s\S]*?)<\/script\s*>/i.exec(m[3]);
    out.push({
      tag,
      id,
      json: json ? json[1] : null,
      markup: !json && /\S/.test(m[3].replace(/<p class="quiz-fallback">[\s\S]*?<\/p>/, '')),
    });
  }
  return out;
}

/**
 * The page as one file: { html, title, description, dropped, notes }.
 * `settings` goes into the page for web/lib/reporting/lms-page.js; `script` is
 * dist/posenc-lms.js's text.
 */
export function selfContainedPage(file, { settings, script }) {
  const dir = path.dirname(path.resolve(file));
  let { html } = readPage(file);
  const dropped = [];
  const notes = [];
  const local = (ref, what) => {
    const target = path.resolve(dir, decodeURIComponent(ref.split(/[?#]/)[0]));
    if (!existsSync(target))
      throw new Error(`export: ${path.basename(file)} ${what} ${ref}, which is not there (${target})`);
    return target;
  };
  const dataUrl = (ref, what) => {
    const target = local(ref, what);
    const mime = MIME[path.extname(target).toLowerCase()];
    if (!mime)
      throw new Error(
        `export: ${path.basename(file)} ${what} ${ref}: not an image this export inlines (${Object.keys(MIME).join(', ')})`,
      );
    return `data:${mime};base64,${readFileSync(target).toString('base64')}`;
  };

  // 1. scripts: only the JSON of questions stays; a module script of the page imports the package by name
  html = html.replace(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi, (whole, attrs) => {
    const type = (attrValue(`<x${attrs}>`, 'type') ?? '').toLowerCase();
    if (type === 'application/json') return whole;
    const src = attrValue(`<x${attrs}>`, 'src');
    dropped.push(src ? `<script src="${src}">` : `an inline <script${type ? ` type="${type}"` : ''}>`);
    return '';
  });
  // 2. stylesheets inlined; icons and images as data: URLs
  html = html.replace(/<link\b[^>]*>/gi, (tag) => {
    const rel = (attrValue(tag, 'rel') ?? '').toLowerCase();
    const href = attrValue(tag, 'href');
    if (!href) return tag;
    if (rel === 'stylesheet') {
      if (!isLocal(href)) {
        notes.push(`the stylesheet ${href} is loaded from the network`);
        return tag;
      }
      const css = readFileSync(local(href, 'links the stylesheet'), 'utf8').replace(/<\/(style)/gi, '<\\/$1');
      return `<style>\n${css}\n</style>`;
    }
    if (rel.split(/\s+/).includes('icon') && isLocal(href))
      return tag.replace(attr(tag, 'href')[0], ` href="${dataUrl(href, 'links the icon')}"`);
    if (/modulepreload|preload|prefetch|manifest/.test(rel) && isLocal(href)) {
      dropped.push(`<link rel="${rel}" href="${href}">`);
      return '';
    }
    return tag;
  });
  html = html.replace(/<(img|source)\b[^>]*>/gi, (tag) => {
    const src = attrValue(tag, 'src');
    if (!src || !isLocal(src) || src.startsWith('data:')) return tag;
    return tag.replace(attr(tag, 'src')[0], ` src="${dataUrl(src, 'shows the image')}"`);
  });
  for (const m of html.matchAll(/<a\b[^>]*\shref\s*=\s*["']([^"'#][^"']*)["']/gi))
    if (isLocal(m[1])) notes.push(`the link to ${m[1]} is not in the package`);
  if (/<train-lab\b/i.test(html))
    notes.push(
      '<train-lab> is not in one-file exports (it needs the trainer builds and its worker file): it shows nothing',
    );

  // 3. the page's settings and the one script, last, so the text shows while it parses
  if (!/<meta\s+charset/i.test(html)) html = html.replace(/<head([^>]*)>/i, '<head$1>\n<meta charset="utf-8">');
  const code = script.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  const tail = `<script type="application/json" id="posenc-export">${JSON.stringify(settings)}</script>\n<script type="module">\n${code}\n</script>\n`;
  html = /<\/body\s*>/i.test(html) ? html.replace(/<\/body\s*>/i, () => `${tail}</body>`) : `${html}\n${tail}`;

  const title = (/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '').trim() || path.basename(file);
  const description =
    attrValue(/<meta\b[^>]*name\s*=\s*["']description["'][^>]*>/i.exec(html)?.[0] ?? '', 'content') ?? '';
  return { html, title: decodeEntities(title), description: decodeEntities(description), dropped, notes };
}

const decodeEntities = (s) =>
  s.replace(
    /&(amp|lt|gt|quot|#39|apos);/g,
    (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" })[e],
  );
