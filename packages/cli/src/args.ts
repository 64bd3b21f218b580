/**
 * The command line's grammar: `node:util` `parseArgs` plus the checks it does not do (a command,
 * its operands, a user-agent where one is needed). Option values are not checked here: the command
 * line builds the `RobotsManager` options a crawler would pass and the library checks them, so
 * `heed` accepts exactly what a crawler may configure. Bad usage is a {@link UsageError}: the
 * process prints it with the usage text and exits with 2.
 */
import { parseArgs } from 'node:util';
import { USAGE_CATEGORIES, type ProductTokens } from '@heed/parser';
import { InvalidOptionsError, originOf, type RobotsManagerOptions } from '@heed/manager';
import { openManager } from './manager.js';

/** Wrong command-line usage; the message says what is missing or wrong. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type CommandName = 'check' | 'explain' | 'lint';

/** The user-agent header when the command line names none (lint fetches). */
export const DEFAULT_USER_AGENT = 'heed-cli';

/** Seconds the fetch of a robots.txt waits at most for a connection, within the whole `--timeout`. */
const CONNECT_TIMEOUT_SECS = 10;

/**
 * Bytes of a robots.txt crawlers read (Google: 500 KiB, the manager's default `maxBytes`): files
 * are read up to it and the manager is asked for it, so both kinds of input are cut at one place.
 */
export const READ_LIMIT = 512_000;

export interface CliOptions {
  readonly json: boolean;
  /** The user-agent: the full header sent when fetching (`heed-cli` when none is given). */
  readonly userAgent: string;
  /**
   * The product token(s) matched against groups: `--product-token` (repeatable or comma-separated:
   * a list), or the first token of the user-agent.
   */
  readonly productToken: ProductTokens;
  /** The `RobotsManager` options the command line stands for, checked by the library. */
  readonly manager: RobotsManagerOptions;
  /** `--color` / `--no-color`; undefined: decide from the TTY and NO_COLOR. */
  readonly color?: boolean;
  /** `lint --summary <dir>`: one table over every file of a directory. */
  readonly summary: boolean;
  /** `lint --ignore code,code`. */
  readonly ignore: readonly string[];
  /** `--purpose train-ai` (repeatable, or comma-separated): usage categories to report on (check, explain). */
  readonly purposes: readonly string[];
}

export type Invocation =
  | { readonly kind: 'help'; readonly command?: CommandName }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly command: CommandName; readonly operands: readonly string[]; readonly options: CliOptions };

export const USAGE = `Usage: heed <command> [options]

Commands:
  heed check <url...> --user-agent <ua>
      Fetch each URL's robots.txt the way a Heed crawler does (status policy, redirects, 500 KiB)
      and say whether <ua> may fetch the URL, with the deciding line and group, or why no rule
      decided (404: everything allowed; 503 or unreachable: everything disallowed).
  heed explain <robots.txt file|url> <url...> --user-agent <ua>
      Judge each URL (or path) against one robots.txt, with the deciding line and group.
  heed lint <robots.txt file|url>
      Report what crawlers read differently from what the file says, line by line.
  For explain and lint, any URL of a site stands for its /robots.txt, the one file crawlers read.
  heed lint --summary <directory>
      Lint every file of a directory; print how many files have each diagnostic.

Options:
  -A, --user-agent <ua>   the crawler's user-agent (full header or product token, e.g. HeedBot/1.0;
                          at most 512 bytes)
      --product-token <t> the token groups are matched by, when the user-agent does not start with
                          it (e.g. MyBot for "Mozilla/5.0 (compatible; MyBot/1.0)"); several
                          (repeatable or comma-separated, e.g. MyBot-News,MyBot): the groups of
                          every named token apply, the * group only when none is named
      --json              machine-readable output on stdout
      --ignore <codes>    lint: comma-separated diagnostic codes to leave out
      --purpose <p>       check, explain: also report the AI-usage preference for what the crawl
                          is for: train-ai, search, ai-input or ai-use (repeatable or comma-separated);
                          check reads robots.txt and, for train-ai and ai-input, tdmrep.json;
                          exit code 1 when a purpose is disallowed
      --timeout <secs>    seconds for a whole robots.txt fetch, 0.001 to 2147483.647 (default 30)
      --color, --no-color force colour on or off (default: on for a terminal unless NO_COLOR is set)
  -h, --help              this help
  -V, --version           the version

Files are read up to 500 KiB (what crawlers read) and robots.txt URLs fetched as a crawler does.
Exit codes: 0 allowed / no errors, 1 disallowed / errors found, 2 bad usage or an unreadable input.
`;

const COMMANDS = new Set<string>(['check', 'explain', 'lint']);

/** Reads `argv` (without `node` and the script). Throws {@link UsageError}. */
export function parseCommandLine(argv: readonly string[]): Invocation {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        'user-agent': { type: 'string', short: 'A' },
        'product-token': { type: 'string', multiple: true },
        json: { type: 'boolean', default: false },
        ignore: { type: 'string', multiple: true },
        summary: { type: 'boolean', default: false },
        timeout: { type: 'string' },
        purpose: { type: 'string', multiple: true },
        color: { type: 'boolean' },
        'no-color': { type: 'boolean' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'V', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, '.') : String(error));
  }
  const { values, positionals } = parsed;
  const [command, ...operands] = positionals;
  if (values.version) return { kind: 'version' };
  if (values.help || command === 'help') {
    const topic = command === 'help' ? operands[0] : command;
    return topic !== undefined && COMMANDS.has(topic) ? { kind: 'help', command: topic as CommandName } : { kind: 'help' };
  }
  if (command === undefined) throw new UsageError('no command given; use check, explain or lint.');
  if (!COMMANDS.has(command)) throw new UsageError(`unknown command "${command}"; use check, explain or lint.`);

  const userAgent = values['user-agent'];
  const color = values['no-color'] === true ? false : values.color;
  const options: CliOptions = {
    json: values.json === true,
    ...libraryOptions(userAgent ?? DEFAULT_USER_AGENT, readProductTokens(values['product-token']), values.timeout),
    ...(color === undefined ? {} : { color }),
    summary: values.summary === true,
    ignore: (values.ignore ?? [])
      .flatMap((list) => list.split(','))
      .map((code) => code.trim())
      .filter((code) => code.length > 0),
    purposes: readPurposes(values.purpose ?? []),
  };

  switch (command) {
    case 'check':
      if (operands.length === 0)
        throw new UsageError('check needs at least one URL, e.g. heed check https://example.com/page --user-agent HeedBot.');
      if (userAgent === undefined)
        throw new UsageError('check needs --user-agent: the user-agent your crawler sends (its product token is matched).');
      break;
    case 'explain':
      if (operands.length < 2)
        throw new UsageError(
          'explain needs a robots.txt (file or URL) and at least one URL or path, e.g. heed explain robots.txt /private/x --user-agent HeedBot.',
        );
      if (userAgent === undefined) throw new UsageError('explain needs --user-agent: the crawler whose verdicts you want.');
      for (const url of operands.slice(1)) {
        if (!url.startsWith('/') && originOf(url) === undefined) {
          throw new UsageError(
            `"${url}" is neither an absolute http(s) URL nor a path starting with "/"; explain judges URLs such as https://example.com/page or paths such as /page.`,
          );
        }
      }
      break;
    case 'lint':
      if (operands.length !== 1)
        throw new UsageError(
          options.summary ? 'lint --summary needs exactly one directory.' : 'lint needs exactly one robots.txt file or URL.',
        );
      break;
  }
  if (options.summary && command !== 'lint') throw new UsageError('--summary only applies to lint.');
  if (options.ignore.length > 0 && command !== 'lint') throw new UsageError('--ignore only applies to lint.');
  if (options.purposes.length > 0 && command === 'lint') throw new UsageError('--purpose only applies to check and explain.');
  return { kind: 'run', command: command as CommandName, operands, options };
}

/** `--purpose` values: known usage categories, each once, in the order given. */
function readPurposes(values: readonly string[]): string[] {
  const purposes = values
    .flatMap((list) => list.split(','))
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  for (const purpose of purposes) {
    if (!(USAGE_CATEGORIES as readonly string[]).includes(purpose)) {
      throw new UsageError(`--purpose ${purpose}: not a usage category; use one of ${USAGE_CATEGORIES.join(', ')}.`);
    }
  }
  return [...new Set(purposes)];
}

/**
 * `--product-token` values: one token, or a list when several are given (repeated or
 * comma-separated). An empty value stays in the list, so the library's check names it.
 */
function readProductTokens(values: readonly string[] | undefined): ProductTokens | undefined {
  if (values === undefined) return undefined;
  const tokens = values.flatMap((list) => list.split(',')).map((token) => token.trim());
  return tokens.length === 1 ? tokens[0] : tokens;
}

/** The command-line flag that sets each library option. */
const FLAGS: Readonly<Record<string, string>> = {
  userAgent: '--user-agent',
  productToken: '--product-token',
  timeoutSecs: '--timeout',
  connectTimeoutSecs: '--timeout',
};

/**
 * The `RobotsManager` options the flags stand for, checked by the library's own validation: a value
 * a crawler could not configure (a user-agent with a line break, a timeout past what a Node.js timer
 * can wait) is a usage error naming the flag, not a failed fetch reported as the site's answer.
 */
function libraryOptions(
  userAgent: string,
  productToken: ProductTokens | undefined,
  timeout: string | undefined,
): Pick<CliOptions, 'userAgent' | 'productToken' | 'manager'> {
  // A value that is not a number is handed over as the string, so the error quotes it as typed.
  const timeoutSecs = timeout === undefined ? 30 : /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(timeout) ? Number(timeout) : timeout;
  const manager = {
    userAgent,
    ...(productToken === undefined ? {} : { productToken }),
    timeoutSecs: timeoutSecs as number,
    connectTimeoutSecs: typeof timeoutSecs === 'number' ? Math.min(CONNECT_TIMEOUT_SECS, timeoutSecs) : CONNECT_TIMEOUT_SECS,
    maxBytes: READ_LIMIT,
  };
  try {
    // Building a manager is how its options are checked, and it says which product token it matches.
    const probe = openManager(manager);
    const matched = probe.productToken;
    void probe.close();
    return { userAgent, productToken: matched, manager };
  } catch (error) {
    if (!(error instanceof InvalidOptionsError)) throw error;
    const flag = FLAGS[error.option] ?? error.option;
    // The library's hint names its option; on the command line it is a flag.
    const problem = error.problem
      .replace(/productToken: "([^"]*)"/, '--product-token $1')
      .replace(/leave productToken out/, 'leave --product-token out')
      .replace(/a list such as \["([^"]*)", "([^"]*)"\]/, 'several: --product-token $1,$2');
    const given = flag === '--timeout' ? ` ${timeout}` : '';
    throw new UsageError(`${flag}${given}: ${problem}`);
  }
}
