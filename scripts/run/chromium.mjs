// Debian's Chromium, as every browser run of this project starts it (tests,
// benchmarks, screenshots). The flags are the ones that work here as root
// (toolchain notes): no sandbox, and no background networking, which this
// machine's closed network would refuse. CHROMIUM=/path overrides the binary.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Every new window (each browser context) of Chromium 156 loads the address
// bar's suggestion popup, a WebUI page (chrome://omnibox-popup.top-chrome/,
// twice), in a renderer of its own: about 1.7 s of CPU in that renderer and
// 0.5 s more in the browser process during the window's first two seconds,
// measured from /proc on this 2-core machine. A phone has no such popup,
// and on two cores it slowed whatever page the window had just opened.
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

// Chromium keeps only the last --disable-features, and Playwright passes its
// own list (features that would break automation): that list is extended, not
// replaced. Playwright does not export it, so it is read from its switches
// module (playwright-core is pinned in package.json); if that module moves,
// Chromium starts without the extra features disabled rather than without
// Playwright's.
function featureArgs() {
  try {
    const require = createRequire(import.meta.url);
    const root = dirname(require.resolve('playwright-core/package.json'));
    const { chromiumSwitches } = require(join(root, 'lib/server/chromium/chromiumSwitches.js'));
    const own = chromiumSwitches(false).find((a) => a.startsWith('--disable-features='));
    if (own) return { args: [`${own},${DISABLED_FEATURES.join(',')}`], ignoreDefaultArgs: [own] };
  } catch {
    // below
  }
  console.warn(
    `scripts/run/chromium.mjs: Playwright's --disable-features list was not found; Chromium starts with ${DISABLED_FEATURES.join(', ')} enabled`,
  );
  return { args: [], ignoreDefaultArgs: [] };
}

/** Chromium driven by playwright-core. */
export function launchChromium() {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`no Chromium at ${CHROMIUM_PATH} (npm test and npm run bench install it)`);
  const features = featureArgs();
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, ...features.args],
    ignoreDefaultArgs: features.ignoreDefaultArgs,
  });
}
