// Injected first into every page the engine tests open (drivers.mjs): records
// what a learner's console would show, for engines whose driver cannot read
// the console (WebKitWebDriver has no BiDi). Test-only; never part of web/.
(() => {
  const probe = (window.__peProbe = { errors: [], violations: [] });
  const text = (v) => (v instanceof Error ? v.message : typeof v === 'string' ? v : JSON.stringify(v));
  const consoleError = console.error.bind(console);
  console.error = (...args) => {
    probe.errors.push(`console: ${args.map(text).join(' ')}`);
    consoleError(...args);
  };
  addEventListener(
    'error',
    (e) => {
      const t = e.target;
      if (t && t !== window && (t.src || t.href)) probe.errors.push(`failed to load: ${t.src || t.href}`);
      else if (e.message) probe.errors.push(`exception: ${e.message}`);
    },
    true,
  );
  addEventListener('unhandledrejection', (e) => probe.errors.push(`exception: unhandled rejection: ${text(e.reason)}`));
  document.addEventListener('securitypolicyviolation', (e) =>
    probe.violations.push(`${e.violatedDirective}: ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
  );
})();
