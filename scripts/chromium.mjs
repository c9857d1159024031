// Debian's Chromium, as every browser run of this project starts it (tests,
// benchmarks, screenshots). The flags are the ones that work here as root
// (toolchain notes): no sandbox, and no background networking, which this
// machine's closed network would refuse. CHROMIUM=/path overrides the binary.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Chromium driven by playwright-core. */
export function launchChromium() {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (npm test and npm run bench install it)`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}
