#!/usr/bin/env node
// posenc-course: the npm package's command (package.json "bin").
//
//   npx posenc-course export <html|scorm12|scorm2004|cmi5> <page.html|page.md>
//       [--out <file>] [--mastery <percent>] [--activity-base <IRI>] [--title <text>]
//
// Packages an author's own page (its widgets, its questions, its score) as
// one file or as an LMS package, from the package alone (lms/export.mjs).
import { exportPage, KINDS } from '../lms/export.mjs';

const USAGE = `Usage: posenc-course export <kind> <page.html|page.md> [options]

  kind                  ${Object.entries(KINDS)
    .map(([k, v]) => `${k} (${v.what})`)
    .join(', ')}
  --out <file>          where to write (default: <page>-<kind>.html or .zip here)
  --mastery <percent>   the passing score, 0 to 100 (default 80; SCORM and cmi5)
  --activity-base <IRI> the xAPI IRI your questions are named under (required for cmi5)
  --title <text>        the course's title in the package (default: the page's <title>)`;

const FLAGS = { '--out': 'out', '--mastery': 'mastery', '--activity-base': 'activityBase', '--title': 'title' };

function parse(argv) {
  const [command, kind, page, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') return { help: true };
  if (command !== 'export') throw new Error(`unknown command ${JSON.stringify(command)}: the command is export`);
  const options = { kind, page };
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i].split(/=(.*)/s, 2);
    if (!Object.hasOwn(FLAGS, flag))
      throw new Error(`unknown option ${rest[i]} (options: ${Object.keys(FLAGS).join(', ')})`);
    const value = inline ?? rest[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    options[FLAGS[flag]] = flag === '--mastery' ? Number(value) : value;
  }
  return options;
}

try {
  const options = parse(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
  } else {
    const r = await exportPage(options);
    const kib = (r.bytes / 1024).toFixed(0);
    console.log(
      `posenc-course export: ${r.out} (${r.what}, ${kib} KiB): ${r.questions.length} question${r.questions.length === 1 ? '' : 's'}${r.questions.length ? ` (${r.questions.join(', ')})` : ''}`,
    );
    for (const d of r.dropped) console.log(`  dropped ${d}: the package's own script defines the widgets`);
    for (const n of r.notes) console.log(`  note: ${n}`);
    if (r.validate) console.log(`  to validate: unzip it, then ${r.validate}`);
  }
} catch (error) {
  console.error(`posenc-course: ${error.message}`);
  if (/unknown command|unknown option|needs a value|one of|name the page/.test(error.message))
    console.error(`\n${USAGE}`);
  process.exit(1);
}
