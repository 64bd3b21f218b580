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

/**
 * Wrong command-line usage; the message says what is missing or wrong (the process prints it and
 * "see heed <command> --help").
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type CommandName = 'check' | 'explain' | 'lint' | 'audit' | 'disclose' | 'keys';

/** The user-agent header when the command line names none (lint fetches). */
export const DEFAULT_USER_AGENT = 'heed-cli';

/** Where `disclose` writes when no `--out` is given. */
export const DEFAULT_DISCLOSURE_DIR = './bot-disclosure/';

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
  /** `--purpose train-ai` (repeatable, or comma-separated): usage categories to report on (check, explain), or the crawl is for (disclose). */
  readonly purposes: readonly string[];
  /** `audit --snapshots <dir>`: the snapshot directory the records name snapshots in. */
  readonly snapshots?: string;
  /** `disclose --contact <url>`: where site owners reach the crawler's operator. */
  readonly contact?: string;
  /** `disclose --records`: the crawl keeps records (the plugin's `records` option). */
  readonly records: boolean;
  /** `disclose --out <dir>`: where the page, its JSON and its feed are written. */
  readonly out?: string;
  /** `disclose --config <file>`: the disclosure's options as a JSON file, instead of their flags. */
  readonly config?: string;
}

export type Invocation =
  | { readonly kind: 'help'; readonly command?: CommandName }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly command: CommandName; readonly operands: readonly string[]; readonly options: CliOptions };

const COMMANDS = new Set<string>(['check', 'explain', 'lint', 'audit', 'disclose', 'keys']);

/** The command `argv` names (its first operand, when that is a command), for the help a usage error points at. */
export function commandOf(argv: readonly string[]): CommandName | undefined {
  const first = argv.find((arg) => !arg.startsWith('-'));
  return first !== undefined && COMMANDS.has(first) ? (first as CommandName) : undefined;
}

/**
 * `node:util`'s message for an option it cannot read, in this command line's words: it names the
 * option as `-A, --user-agent <value>` and suggests `--` for positionals, which reads as another
 * tool's output.
 */
function argsProblem(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(?:-\w, )?(--?[\w-]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option}.`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return message.includes('does not take an argument') ? `${option} takes no value.` : `${option} needs a value.`;
  return message.replace(/\. To specify a positional.*$/s, '.');
}

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
        // The plugin's option is `purposes`: its name works as a flag too.
        purposes: { type: 'string', multiple: true },
        contact: { type: 'string' },
        records: { type: 'boolean', default: false },
        out: { type: 'string' },
        config: { type: 'string' },
        snapshots: { type: 'string' },
        color: { type: 'boolean' },
        'no-color': { type: 'boolean' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'V', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(argsProblem(error));
  }
  const { values, positionals } = parsed;
  const [command, ...operands] = positionals;
  if (values.version) return { kind: 'version' };
  if (values.help || command === 'help') {
    const topic = command === 'help' ? operands[0] : command;
    return topic !== undefined && COMMANDS.has(topic) ? { kind: 'help', command: topic as CommandName } : { kind: 'help' };
  }
  if (command === undefined) throw new UsageError('no command given; use check, explain, lint, audit, disclose or keys.');
  if (!COMMANDS.has(command)) throw new UsageError(`unknown command "${command}"; use check, explain, lint, audit, disclose or keys.`);

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
    purposes: readPurposes([...(values.purpose ?? []), ...(values.purposes ?? [])]),
    ...(values.snapshots === undefined ? {} : { snapshots: values.snapshots }),
    ...(values.contact === undefined ? {} : { contact: values.contact }),
    records: values.records === true,
    ...(values.out === undefined ? {} : { out: values.out }),
    ...(values.config === undefined ? {} : { config: values.config }),
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
    case 'audit':
      if (operands.length !== 1)
        throw new UsageError('audit needs exactly one records file, e.g. heed audit crawl-records.jsonl --snapshots robots-snapshots/.');
      if (options.snapshots === undefined)
        throw new UsageError('audit needs --snapshots <dir>: the snapshot directory the crawl wrote (option records.snapshots).');
      break;
    case 'keys':
      // The subcommand and --out are checked by the command, which names what it writes.
      if (userAgent !== undefined)
        throw new UsageError('--user-agent does not apply to keys: a key signs for whatever user-agent sends it.');
      break;
    case 'disclose': {
      if (operands.length > 0)
        throw new UsageError(
          `disclose takes no operands ("${operands[0]}"); it writes into --out <dir> (default ${DEFAULT_DISCLOSURE_DIR}).`,
        );
      // One source for the facts: a flag beside --config would silently lose to the file, or win over it.
      const facts = [
        ['--user-agent', userAgent],
        ['--product-token', values['product-token']],
        ['--purpose', options.purposes.length > 0 ? options.purposes : undefined],
        ['--contact', options.contact],
        ['--records', options.records ? true : undefined],
      ].filter(([, value]) => value !== undefined);
      if (options.config !== undefined && facts.length > 0)
        throw new UsageError(
          `${String(facts[0]?.[0])} and --config: give the disclosure either as flags or in the file (userAgent, productToken, purposes, contact, records), not both.`,
        );
      if (options.config === undefined && userAgent === undefined)
        throw new UsageError(
          'disclose needs --user-agent (the User-Agent your crawler sends, e.g. "MyBot/1.0 (+https://example.com/bot)") or --config <file>.',
        );
      break;
    }
  }
  if (options.snapshots !== undefined && command !== 'audit') throw new UsageError('--snapshots only applies to audit.');
  if (options.summary && command !== 'lint') throw new UsageError('--summary only applies to lint.');
  if (options.ignore.length > 0 && command !== 'lint') throw new UsageError('--ignore only applies to lint.');
  if (options.purposes.length > 0 && (command === 'lint' || command === 'audit'))
    throw new UsageError('--purpose only applies to check, explain and disclose.');
  if (command !== 'disclose') {
    const given = {
      '--contact': options.contact,
      '--records': options.records || undefined,
      '--config': options.config,
    };
    const flag = Object.entries(given).find(([, value]) => value !== undefined)?.[0];
    if (flag !== undefined) throw new UsageError(`${flag} only applies to disclose.`);
    if (options.out !== undefined && command !== 'keys') throw new UsageError('--out only applies to disclose and keys generate.');
  }
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
