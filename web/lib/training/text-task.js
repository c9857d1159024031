// <train-lab>'s text task: the corpus a run trains on (the lesson's own
// text, or a URL's), the recorded comparison (web/data/lm-results.js) that a
// run with the recorded settings is drawn against, and the n-gram baselines
// on the same text (web/data/lm-baselines.js).
import LM_RECORDED from '../../data/lm-results.js';
import LM_BASELINES from '../../data/lm-baselines.js';

// A corpus is loaded once (per URL), when a text run starts.
const corpora = new Map(); // '' (the lesson's text) or an absolute URL -> Promise<string>

// The recorded comparison, when a text run's settings are the recorded ones
// (its corpus, length, rate and no more steps than recorded); else null.
export function recordedFor(config, corpus) {
  const c = LM_RECORDED.config;
  const same =
    config.task === 'text' &&
    !corpus &&
    config.trainLen === c.trainLen &&
    config.lr === c.lr &&
    config.steps <= c.steps;
  return same ? LM_RECORDED : null;
}

// The n-gram baselines of the lesson's text ({ lengths, baselines: { uniform,
// '1-gram', ... } }, one value per test length), when a text run reads that
// text at the training length they were scored for; else null.
export function baselinesFor(config, corpus) {
  return config.task === 'text' && !corpus && config.trainLen === LM_BASELINES.trainLen ? LM_BASELINES : null;
}

// The text of a corpus URL (relative to the page), fetched once; '' is the
// lesson's own text, a module (bundlers and the one-file export carry it like code).
export function loadCorpus(url) {
  const href = url ? new URL(url, globalThis.document?.baseURI).href : '';
  if (!corpora.has(href)) {
    const lessonText = () =>
      import('../../data/corpus.js').then(
        (m) => m.default,
        (error) => {
          throw new Error(`The lesson's text for task "text" could not be loaded: ${error.message}.`);
        },
      );
    const pending = !href
      ? lessonText()
      : fetch(href).then(
          async (response) => {
            if (!response.ok)
              throw new Error(`The text for task "text" could not be loaded from ${href}: HTTP ${response.status}.`);
            return response.text();
          },
          (error) => {
            throw new Error(`The text for task "text" could not be loaded from ${href}: ${error.message}.`);
          },
        );
    pending.catch(() => corpora.delete(href)); // a failed load may be retried
    corpora.set(href, pending);
  }
  return corpora.get(href);
}
