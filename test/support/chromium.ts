/**
 * How tests start Debian's Chromium. Besides the flags for a container (no sandbox, no GPU), the
 * browser must never reach past loopback: its own resolver answers "not found" for every host but
 * 127.0.0.1 and localhost. (What it sends through Crawlee's local proxy is resolved by Node.js, where
 * test/support/network-guard.ts stops it.)
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
