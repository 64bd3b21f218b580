/**
 * Tests that need a program this machine may lack (redis-server, Debian's Chromium, openssl) ask
 * here first. On a developer's machine without it they are skipped, with one line that says what to
 * install; under CI (`CI=true`) a missing program fails the run instead, so a CI machine that lost a
 * package cannot pass by skipping what it was meant to test. Tests that run only when asked for
 * (an environment variable) say so through {@link optIn}.
 *
 * Every skip is also written to the file `HEED_SKIPS_FILE` names (set by the global setup), whose
 * teardown lists them all once the run is over: the lines printed here scroll away among the crawl
 * logs of a whole run.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { CHROMIUM } from './chromium.js';

interface Requirement {
  readonly present: () => boolean;
  readonly install: string;
}

const REQUIREMENTS = {
  'redis-server': {
    present: () => spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).status === 0,
    install: 'apt-get install redis-server',
  },
  chromium: {
    present: () => existsSync(CHROMIUM),
    install: `apt-get install chromium-headless-shell (or chromium), or set CHROMIUM_PATH; looked for ${CHROMIUM}`,
  },
  openssl: {
    present: () => spawnSync('sh', ['-c', 'command -v openssl'], { encoding: 'utf8' }).status === 0,
    install: 'apt-get install openssl',
  },
} as const satisfies Record<string, Requirement>;

export type Program = keyof typeof REQUIREMENTS;

const known = new Map<Program, boolean>();

/** Whether the CI rule applies: a missing program is an error there, not a skip. */
function strict(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

/**
 * `true` when `program` is on this machine. When it is not: under CI this throws; elsewhere it
 * prints `SKIPPING <what>: needs <program> (<how to install>)` once per call and returns `false`,
 * so the caller can `describe.skipIf(!has(...))`.
 */
export function has(program: Program, what: string): boolean {
  let present = known.get(program);
  if (present === undefined) {
    present = REQUIREMENTS[program].present();
    known.set(program, present);
  }
  if (present) return true;
  const line = `${what}: needs ${program} (${REQUIREMENTS[program].install})`;
  if (strict()) throw new Error(`CI=true and ${line}. Install it (.ci/run does) or run without CI=true to skip these tests.`);
  noteSkip(line);
  return false;
}

/**
 * `true` when the environment variable `name` is `value` (tests run only on request, e.g. the
 * slow compatibility matrix); otherwise the skip is noted with how to ask for it.
 */
export function optIn(name: string, value: string, what: string, how: string): boolean {
  if (process.env[name] === value) return true;
  noteSkip(`${what}: runs only with ${name}=${value} (${how})`);
  return false;
}

/** Prints the skip now and keeps it for the list at the end of the run. */
function noteSkip(line: string): void {
  console.warn(`SKIPPING ${line}`);
  const file = process.env['HEED_SKIPS_FILE'];
  if (file !== undefined && file !== '') appendFileSync(file, `${line}\n`);
}
