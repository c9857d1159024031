// The lesson in Firefox ESR (Debian's firefox-esr, puppeteer-core over
// WebDriver BiDi): the checks of checks.mjs, plus dark-mode screenshots.
import { engineSuite } from './checks.mjs';

engineSuite('firefox', {
  dark: { dark: true },
  todo: {
    // Gecko does not apply display:inline-block / max-width / overflow-x to an
    // inline <math> (web/lesson.css), so three long inline formulas (sinusoidal
    // \lVert p_{m+\Delta} - p_m \rVert^2 ..., rope \operatorname{Re}\big(...),
    // \operatorname{half}(x[perm]) ...) push the page to 407 px at 375 px
    phone: 'inline MathML wider than the line is not clipped in Firefox: the page is 407 px wide at 375 px',
  },
});
