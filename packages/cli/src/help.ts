/**
 * The help texts: `heed --help` for every command, `heed <command> --help` for one, each built
 * from one table of options so that both say the same. `heed lint --help` lists every diagnostic
 * code with its summary (the codes `--ignore` takes), from the parser's catalogue.
 */
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '@heed/parser';
import { DEFAULT_DISCLOSURE_DIR, type CommandName } from './args.js';

interface OptionHelp {
  readonly flags: string;
  readonly text: string;
  /** The commands it applies to; absent: all. */
  readonly commands?: readonly CommandName[];
}

const OPTIONS: readonly OptionHelp[] = [
  {
    flags: '-A, --user-agent <ua>',
    text: "the crawler's user-agent (full header or product token, e.g. HeedBot/1.0;\nat most 512 bytes)",
    commands: ['check', 'explain', 'lint', 'disclose'],
  },
  {
    flags: '    --product-token <t>',
    text:
      'the token groups are matched by, when the user-agent does not start with\nit (e.g. MyBot for "Mozilla/5.0 (compatible; MyBot/1.0)"); several\n' +
      '(repeatable or comma-separated, e.g. MyBot-News,MyBot): the groups of\nevery named token apply, the * group only when none is named',
    commands: ['check', 'explain', 'lint', 'disclose'],
  },
  { flags: '    --json', text: 'machine-readable output on stdout (errors too)' },
  { flags: '    --ignore <codes>', text: 'lint: comma-separated diagnostic codes to leave out', commands: ['lint'] },
  {
    flags: '    --summary',
    text: 'lint: lint every file of a directory; print how many files have each diagnostic',
    commands: ['lint'],
  },
  {
    flags: '    --purpose <p>',
    text:
      'check, explain: also report the AI-usage preference for what the crawl\nis for: train-ai, search, ai-input or ai-use (repeatable or comma-separated);\n' +
      "check reads robots.txt and, for train-ai and ai-input, tdmrep.json;\nexit code 1 when a purpose is disallowed; disclose: what the crawl is for\n(also --purposes, the plugin's name)",
    commands: ['check', 'explain', 'disclose'],
  },
  {
    flags: '    --contact <url>',
    text: 'disclose: where site owners reach you, an https:// page or mailto: address\n(default: the +https://… URL of the user-agent)',
    commands: ['disclose'],
  },
  { flags: '    --records', text: "disclose: the crawl keeps records (the plugin's records option)", commands: ['disclose'] },
  {
    flags: '    --config <file>',
    text:
      "disclose: the plugin's options as a JSON object instead of the flags:\nuserAgent, productToken, contact, purposes, unknownUsage, crawlDelay,\n" +
      'maxCrawlDelaySecs, checkRedirects, checkSendRequest, blockSubresources,\nidentifyPages, metaRobots, honorRelNofollow, sitemaps, records (true/false)',
    commands: ['disclose'],
  },
  {
    flags: '    --out <dir>',
    text: `disclose: the directory written (default ${DEFAULT_DISCLOSURE_DIR});\nkeys generate: where the key and its directory are written`,
    commands: ['disclose', 'keys'],
  },
  {
    flags: '    --snapshots <dir>',
    text: 'audit: the robots.txt snapshot directory the crawl wrote (records.snapshots)',
    commands: ['audit'],
  },
  {
    flags: '    --timeout <secs>',
    text: 'seconds for a whole robots.txt fetch, 0.001 to 2147483.647 (default 30)',
    commands: ['check', 'explain', 'lint'],
  },
  { flags: '    --color, --no-color', text: 'force colour on or off (default: on for a terminal unless NO_COLOR is set)' },
  { flags: '-h, --help', text: 'this help' },
];

const COMMANDS: Readonly<Record<CommandName, { readonly synopsis: string; readonly text: string }>> = {
  check: {
    synopsis: 'heed check <url...> --user-agent <ua>',
    text:
      "Fetch each URL's robots.txt the way a Heed crawler does (status policy, redirects, 500 KiB)\n" +
      'and say whether <ua> may fetch the URL, with the deciding line and group, or why no rule\n' +
      'decided (404: everything allowed; 503 or unreachable: everything disallowed).',
  },
  explain: {
    synopsis: 'heed explain <robots.txt file|url> <url...> --user-agent <ua>',
    text: 'Judge each URL (or path) against one robots.txt, with the deciding line and group.',
  },
  lint: {
    synopsis: 'heed lint <robots.txt file|url>',
    text: 'Report what crawlers read differently from what the file says, line by line.',
  },
  disclose: {
    synopsis: 'heed disclose --user-agent <ua> [--purpose <p>] [--contact <url>] [--records]',
    text:
      "Write the page you publish about your crawler, from the Crawlee plugin's options: which\n" +
      'robots.txt groups it obeys, how it reads robots.txt and what a 4xx, a 5xx or no answer\n' +
      'means to it, its crawl-delay, the AI-usage signals it honours, its records, your contact.\n' +
      'Into --out: index.html, disclosure.json (the same facts) and feed.atom, which gains an\n' +
      'entry whenever the facts change (20 kept). Or: heed disclose --config bot.json.',
  },
  keys: {
    synopsis: 'heed keys generate --out <dir>',
    text:
      'Make an Ed25519 key pair for Web Bot Auth (signed requests sites can verify): into --out,\n' +
      'private-key.jwk (mode 0600) for the signature option, and http-message-signatures-directory,\n' +
      "the key directory to publish at /.well-known/http-message-signatures-directory of the bot's\n" +
      'host. An existing key is never overwritten.',
  },
  audit: {
    synopsis: 'heed audit <crawl-records.jsonl> --snapshots <dir>',
    text:
      "Judge every record of a crawl again against the robots.txt snapshot it names (today's\n" +
      "parser, the record's product token), check each snapshot's bytes against its id and the\n" +
      "record's outcome against its sightings; list every request that left unallowed, every\n" +
      'missing or altered snapshot and every malformed line, then a summary per origin.\n' +
      'A folder is read as a local Crawlee dataset of records (records.dataset), a file per record.\n' +
      'Exit code 1 on any violation, 0 when clean.',
  },
};

const EXIT_CODES = 'Exit codes: 0 allowed / no errors, 1 disallowed / errors found, 2 bad usage or an unreadable input.';
const AUDIT_EXIT_CODES = 'Exit codes: 0 clean, 1 a violation found, 2 bad usage or an unreadable input.';
const DISCLOSE_EXIT_CODES = 'Exit codes: 0 written, 2 bad usage, an unreadable --config or an --out that cannot be written.';
const KEYS_EXIT_CODES = 'Exit codes: 0 written, 2 bad usage, a key already in --out or an --out that cannot be written.';
const INPUTS = 'Files are read up to 500 KiB (what crawlers read) and robots.txt URLs fetched as a crawler does.';
const SITE_URLS = 'For explain and lint, any URL of a site stands for its /robots.txt, the one file crawlers read.';

function optionLines(command: CommandName | undefined): string[] {
  const lines: string[] = [];
  for (const option of OPTIONS) {
    if (command !== undefined && option.commands !== undefined && !option.commands.includes(command)) continue;
    const [first, ...rest] = option.text.split('\n');
    lines.push(`  ${option.flags.padEnd(24)}${first ?? ''}`);
    for (const more of rest) lines.push(`${' '.repeat(26)}${more}`);
  }
  return lines;
}

/** `heed --help`: every command and option. */
export const USAGE = [
  'Usage: heed <command> [options]',
  '',
  'Commands:',
  ...(['check', 'explain', 'lint'] as const).flatMap((name) => [`  ${COMMANDS[name].synopsis}`, ...indent(COMMANDS[name].text, 6)]),
  `  ${SITE_URLS}`,
  '  heed lint --summary <directory>',
  '      Lint every file of a directory; print how many files have each diagnostic.',
  `  ${COMMANDS.audit.synopsis}`,
  ...indent(COMMANDS.audit.text, 6),
  `  ${COMMANDS.disclose.synopsis}`,
  ...indent(COMMANDS.disclose.text, 6),
  `  ${COMMANDS.keys.synopsis}`,
  ...indent(COMMANDS.keys.text, 6),
  '  Run heed <command> --help for one command (heed lint --help lists the diagnostic codes).',
  '',
  'Options:',
  ...optionLines(undefined),
  '  -V, --version           the version',
  '',
  INPUTS,
  EXIT_CODES,
  '',
].join('\n');

/** `heed <command> --help`: that command, its options, and for lint every diagnostic code. */
export function commandHelp(command: CommandName): string {
  const { synopsis, text } = COMMANDS[command];
  const lines = [`Usage: ${synopsis} [options]`, ...(command === 'lint' ? ['       heed lint --summary <directory>'] : []), '', text];
  if (command === 'explain' || command === 'lint') lines.push(SITE_URLS);
  lines.push('', 'Options:', ...optionLines(command));
  if (command === 'lint') lines.push('', 'Diagnostic codes (for --ignore):', ...diagnosticLines());
  const exitCodes = { audit: [AUDIT_EXIT_CODES], disclose: [DISCLOSE_EXIT_CODES], keys: [KEYS_EXIT_CODES] } as const;
  lines.push('', ...(command === 'audit' || command === 'disclose' || command === 'keys' ? exitCodes[command] : [INPUTS, EXIT_CODES]), '');
  return lines.join('\n');
}

function diagnosticLines(): string[] {
  const entries = Object.entries(DIAGNOSTIC_CODES) as [DiagnosticCode, { severity: string; summary: string }][];
  const width = Math.max(...entries.map(([code]) => code.length));
  return entries.map(([code, { severity, summary }]) => `  ${code.padEnd(width)}  ${severity.padEnd(7)}  ${summary}`);
}

function indent(text: string, by: number): string[] {
  return text.split('\n').map((line) => `${' '.repeat(by)}${line}`);
}
