/**
 * How every example reads its command line and ends, so they all answer alike: `--help`, the
 * common `--user-agent`, the example's own flags, start URLs after them; a wrong argument is one
 * line plus "see --help" (exit 2), and a missing program (redis-server, Chromium) is one line
 * saying what to install (exit 1), never a stack trace.
 *
 * It lives in the demo site because every example already depends on it.
 */
import { isAbsolute, relative } from 'node:path';
import { DEMO_USER_AGENT } from './robots-files.js';

/** A program or library the example needs is missing; the message says what to install. */
export class MissingPrerequisiteError extends Error {
  override readonly name: string = 'MissingPrerequisiteError';
}

/** An example's command line. */
export interface ExampleCommand {
  /** How it is run from its own folder, e.g. `node dist/main.js`; messages name the path it was run by. */
  readonly name: string;
  /** One line: what it does. */
  readonly summary: string;
  /** Whether it takes start URLs (`[-- <URL>...]`); without, a URL is a usage error. */
  readonly urls: boolean;
  /** Its own flags, each taking a value: `--workers` → what the value is and its default. */
  readonly flags?: Readonly<Record<string, { readonly value: string; readonly help: string }>>;
}

/** What was given on the command line. */
export interface ExampleArgs {
  readonly urls: readonly string[];
  /** `--user-agent`, or the demo bot's. */
  readonly userAgent: string;
  /** The example's own flags that were given, by name without the dashes. */
  readonly flags: Readonly<Record<string, string>>;
}

/**
 * How the example was run, as the user can type it again from where they are: `node
 * examples/cheerio-basic/dist/main.js` from the repository's root, `node dist/main.js` from the
 * example's folder; `command.name` when the script's path is not known.
 */
function invokedAs(command: ExampleCommand): string {
  const script = process.argv[1];
  if (script === undefined || !command.name.startsWith('node ')) return command.name;
  const path = relative(process.cwd(), script);
  return `node ${path === '' || isAbsolute(path) || path.startsWith('..') ? script : path}`;
}

/** The `--help` text of `command`. */
export function exampleUsage(command: ExampleCommand): string {
  const flags = Object.entries(command.flags ?? {});
  const lines = [
    `usage: ${invokedAs(command)} [--user-agent <header>]${flags.map(([flag, { value }]) => ` [--${flag} <${value}>]`).join('')}${command.urls ? ' [--] [<URL>...]' : ''}`,
    '',
    command.summary,
    '',
    '  --user-agent <header>  the User-Agent to crawl as; its product token picks the robots.txt group',
    `                         (default: "${DEMO_USER_AGENT}")`,
    ...flags.map(([flag, { value, help }]) => `  --${`${flag} <${value}>`.padEnd(20)} ${help}`),
    ...(command.urls ? ['  <URL>...               where to start (default: the bundled demo site)'] : []),
    '  -h, --help             this help',
  ];
  return lines.join('\n');
}

/**
 * Reads `argv` (without node and the script) for `command`. `--help` prints the usage and exits 0;
 * a wrong argument prints one line and "see --help" and exits 2.
 */
export function parseExampleArgs(argv: readonly string[], command: ExampleCommand): ExampleArgs {
  const urls: string[] = [];
  const flags: Record<string, string> = {};
  let userAgent = DEMO_USER_AGENT;
  let onlyUrls = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!onlyUrls && arg === '--') {
      onlyUrls = true;
      continue;
    }
    if (!onlyUrls && (arg === '--help' || arg === '-h')) {
      console.log(exampleUsage(command));
      process.exit(0);
    }
    if (!onlyUrls && arg.startsWith('-')) {
      const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
      const name = flag.replace(/^--?/, '');
      const spec = name === 'user-agent' ? { value: 'header' } : command.flags?.[name];
      if (spec === undefined) usageError(command, `unknown option ${flag}`);
      const value = inline ?? argv[++i];
      if (value === undefined || value.trim() === '' || (inline === undefined && value.startsWith('--')))
        usageError(command, `${flag} needs a value (<${spec.value}>)`);
      if (name === 'user-agent') userAgent = value;
      else flags[name] = value;
      continue;
    }
    if (!command.urls) usageError(command, `unexpected argument "${arg}"`);
    if (!isHttpUrl(arg)) usageError(command, `"${arg}" is not an http(s) URL to start from`);
    urls.push(arg);
  }
  return { urls, userAgent, flags };
}

/**
 * Runs an example's main: a {@link MissingPrerequisiteError} ends it with its one line on stderr
 * and exit code 1; anything else is a bug of the example and keeps its stack trace.
 */
export async function runExample(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    if (!(error instanceof MissingPrerequisiteError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}

/** Ends the example with a usage error: one line naming what was wrong, one saying where the help is (exit 2). */
export function usageError(command: ExampleCommand, message: string): never {
  const name = invokedAs(command);
  console.error(`${name}: ${message}\nsee ${name} --help`);
  process.exit(2);
}

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}
