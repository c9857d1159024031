// The lesson in Firefox ESR (Debian's firefox-esr, puppeteer-core over
// WebDriver BiDi): the checks of checks.mjs, plus dark-mode screenshots.
import { engineSuite } from './checks.mjs';

engineSuite('firefox', {
  dark: { dark: true },
});
