// An LMS for the tests: scorm-again's Scorm12API / Scorm2004API (npm,
// scorm-again 3) in a host page, which launches a SCO in an iframe. Shared by
// scorm.test.mjs (the lesson's packages), lms-export.test.mjs and
// consumer-author.test.mjs (an author's page packaged by posenc-course export).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// the runtime's browser builds (its "require" exports: scripts that define Scorm12API / Scorm2004API)
export const runtimes = {
  1.2: readFileSync(require.resolve('scorm-again/scorm12'), 'utf8'),
  2004: readFileSync(require.resolve('scorm-again/scorm2004'), 'utf8'),
};

// The host page: an LMS window holding the runtime. `window.startLms(...)`
// creates the API (its calls recorded with the last error after each), loads
// the attempt's data, and launches the SCO in the iframe.
export const hostPage = (
  version,
) => `<!doctype html><html><head><meta charset="utf-8"><title>LMS</title><link rel="icon" href="data:,">
<script src="/runtime-${version}.js"></script>
<script>
window.scormLog = [];
window.startLms = ({ data, sco, mode = 'normal' }) => {
  const Runtime = ${version === '2004' ? 'Scorm2004API' : 'Scorm12API'};
  const api = new Runtime({ logLevel: 5, autocommit: false });
  api.loadFromJSON(data);
  window.runtime = api;
  const methods = ${JSON.stringify(version === '2004' ? ['Initialize', 'Terminate', 'GetValue', 'SetValue', 'Commit', 'GetLastError', 'GetErrorString', 'GetDiagnostic'] : ['LMSInitialize', 'LMSFinish', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSGetLastError', 'LMSGetErrorString', 'LMSGetDiagnostic'])};
  const lastError = methods[5];
  const wrapper = {};
  for (const m of methods) {
    wrapper[m] = (...args) => {
      if (mode === 'throws' && m !== lastError) throw new Error('LMS unavailable');
      if (mode === 'errors') return m === lastError ? '101' : m.endsWith('GetValue') ? '' : 'false';
      if (mode === 'refuses-writes' && /SetValue|Commit/.test(m)) return 'false';
      if (mode === 'refuses-writes' && m === lastError) return '405';
      const result = api[m](...args);
      if (m !== lastError && !/ErrorString|Diagnostic/.test(m)) window.scormLog.push({ m, args, result: String(result), error: String(api[lastError]()) });
      return result;
    };
  }
  window.${version === '2004' ? 'API_1484_11' : 'API'} = wrapper;
  window.apiWrapper = wrapper;
  const frame = document.createElement('iframe');
  frame.id = 'sco';
  frame.title = 'Lesson';
  frame.style.cssText = 'width:1000px;height:800px;border:0';
  frame.src = sco;
  document.body.append(frame);
};
</script></head><body><h1>LMS</h1></body></html>`;

/** What an LMS passes at launch (loadFromJSON): the learner, the mastery from the manifest, and on a resume the stored data. */
export function launchData(version, { resume = null } = {}) {
  // what an LMS passes at launch: the learner, the mastery from the manifest, and on a resume the stored data
  if (version === '2004') {
    return {
      learner_id: 'learner-1',
      learner_name: 'Learner, Test',
      scaled_passing_score: '0.8',
      completion_threshold: '1',
      entry: resume ? 'resume' : 'ab-initio',
      ...(resume ? { suspend_data: resume.suspend_data } : {}),
    };
  }
  return {
    core: {
      student_id: 'learner-1',
      student_name: 'Learner, Test',
      entry: resume ? 'resume' : 'ab-initio',
      ...(resume ? { lesson_status: resume.core.lesson_status } : {}),
    },
    student_data: { mastery_score: '80' },
    ...(resume ? { suspend_data: resume.suspend_data } : {}),
  };
}
