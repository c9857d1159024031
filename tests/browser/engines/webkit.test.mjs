// The lesson in WebKitGTK (Debian's webkit2gtk-driver: WebKitWebDriver and
// MiniBrowser, selenium-webdriver; run under xvfb-run -a): the checks of
// checks.mjs, and the scalar fallback chosen by a real engine, since
// JSC_useWasmSIMD=0 turns JavaScriptCore's WebAssembly SIMD off.
import { engineSuite } from './checks.mjs';

engineSuite('webkit', {
  scalar: { env: { JSC_useWasmSIMD: '0' } },
  // MiniBrowser's window cannot be made narrower than 447 CSS px (its
  // toolbar), so the phone check lays the lesson out in a 375 px iframe
  phoneInFrame: true,
});
