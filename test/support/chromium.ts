import { existsSync } from 'node:fs';

/**
 * How tests start Debian's Chromium. Besides the flags for a container (no sandbox, no GPU), the
 * browser must never reach past loopback: its own resolver answers "not found" for every host but
 * 127.0.0.1 and localhost. (What it sends through Crawlee's local proxy is resolved by Node.js, where
 * test/support/network-guard.ts stops it.)
 */
export const FULL_CHROMIUM = '/usr/bin/chromium';

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`, the same release as its
 * `chromium`) when it is installed: what Playwright launches for a headless page unless told
 * otherwise, and Puppeteer for `headless: 'shell'`. A crawl in it takes about 60 % of the CPU the
 * full browser's headless mode takes, and the tests run dozens of browser crawls on two cores.
 * The full browser is still crawled: the Playwright example launches `/usr/bin/chromium`, and
 * `CHROMIUM_PATH` runs every test in whichever is named.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-domain-reliability',
  '--no-pings',
  '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost',
];

/** Playwright launch options for Debian's Chromium. */
export const PLAYWRIGHT_LAUNCH_OPTIONS = { executablePath: CHROMIUM, args: CHROMIUM_ARGS };
