/**
 * `heed disclose`: writes the page a crawler's operator publishes about the bot, from the options
 * given to the Crawlee plugin (as flags, or a JSON file with `--config`): `index.html` to read,
 * `disclosure.json` with the same facts for machines, and `feed.atom`, which gains an entry each
 * time the facts change. The facts, the page and the feed are pure (disclose/); this module reads
 * the options and the directory's previous feed, and writes the files.
 */
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidOptionsError, printable } from '@heed/parser';
import { DEFAULT_DISCLOSURE_DIR, UsageError, type CliOptions } from './args.js';
import { changedFields, contentId, disclosureJson, disclosureOf, type Disclosure } from './disclose/facts.js';
import { feedEntry, feedXml, MAX_FEED_ENTRIES, newFeedId, readFeed, type Feed } from './disclose/feed.js';
import { disclosurePage } from './disclose/html.js';
import { resolveDisclose, type ResolvedDisclose } from './disclose/options.js';
import type { CommandResult } from './lint-command.js';
import { escapeJson, type Style } from './output.js';
import { InputError, readBounded, readProblem } from './source.js';

/** A config file is a few lines; anything past this is not one. */
const CONFIG_LIMIT = 64 * 1024;
/** Twenty entries of a few hundred bytes each; a larger `feed.atom` is not one heed wrote. */
const FEED_LIMIT = 1024 * 1024;

const FILES = [
  { name: 'index.html', what: 'the page to publish' },
  { name: 'disclosure.json', what: 'the same facts, machine-readable' },
  { name: 'feed.atom', what: 'changes, as an Atom feed' },
] as const;

export async function discloseCommand(options: CliOptions, style: Style): Promise<CommandResult> {
  const resolved = options.config === undefined ? fromFlags(options) : await fromConfig(options.config);
  const disclosure = disclosureOf(resolved);
  const id = contentId(disclosure);
  const out = options.out ?? DEFAULT_DISCLOSURE_DIR;
  const path = (name: (typeof FILES)[number]['name']) => join(out, name);
  try {
    await mkdir(out, { recursive: true });
  } catch (error) {
    throw new InputError(`cannot write to --out "${out}": ${readProblem(error)}.`);
  }

  const feed = await previousFeed(path('feed.atom'));
  const newest = feed?.entries[0];
  const changed = newest?.id !== id;
  const now = new Date().toISOString();
  let entries = feed?.entries.length ?? 0;
  let feedText: string | undefined;
  if (changed) {
    const before = feed === undefined ? undefined : await previousDisclosure(path('disclosure.json'));
    const entry = feedEntry(id, disclosure, now, summaryOf(disclosure, feed === undefined, before));
    const kept = [entry, ...(feed?.entries ?? [])].slice(0, MAX_FEED_ENTRIES);
    entries = kept.length;
    feedText = feedXml(feed?.id ?? newFeedId(), disclosure, kept);
  }

  await writeAtomically(path('index.html'), disclosurePage(disclosure, { generatedAt: now, changedAt: changed ? now : newest.updated }));
  await writeAtomically(path('disclosure.json'), disclosureJson(disclosure, now));
  // Last: a run that fails before it leaves the feed as it was, and the next run adds the entry.
  if (feedText !== undefined) await writeAtomically(path('feed.atom'), feedText);

  const count = `${entries} ${entries === 1 ? 'entry' : 'entries'}`;
  const feedNote = changed ? `a new entry, ${count} in all` : `unchanged: the disclosure is its newest entry (${count})`;
  if (options.json) {
    const files = FILES.map(({ name }) => ({ name, path: path(name), written: name !== 'feed.atom' || changed }));
    return { exitCode: 0, stdout: `${escapeJson(JSON.stringify({ out, id, changed, feedEntries: entries, files }, null, 2))}\n` };
  }
  const width = Math.max(...FILES.map((f) => f.name.length)) + 2;
  const lines = [
    style.bold(`Wrote the disclosure of ${printable(disclosure.productTokens.join(', '))} to ${printable(out)}:`),
    ...FILES.map(
      ({ name, what }) => `  ${name.padEnd(width)}${name === 'feed.atom' ? (changed ? style.green(feedNote) : style.dim(feedNote)) : what}`,
    ),
    `Publish ${printable(path('index.html'))} where site owners find it, e.g. the page your user-agent's URL points to.`,
  ];
  return { exitCode: 0, stdout: `${lines.join('\n')}\n` };
}

/** The flag each option comes from, to name it in an error. */
const FLAGS: Readonly<Record<string, string>> = {
  userAgent: '--user-agent',
  productToken: '--product-token',
  purposes: '--purpose',
  contact: '--contact',
  records: '--records',
};

function fromFlags(options: CliOptions): ResolvedDisclose {
  try {
    return resolveDisclose({
      userAgent: options.userAgent,
      productToken: options.productToken,
      purposes: options.purposes,
      records: options.records,
      ...(options.contact === undefined ? {} : { contact: options.contact }),
    });
  } catch (error) {
    if (!(error instanceof InvalidOptionsError)) throw error;
    throw new UsageError(`${FLAGS[error.option] ?? error.option}: ${error.problem}`);
  }
}

async function fromConfig(file: string): Promise<ResolvedDisclose> {
  const read = await readBounded(file, CONFIG_LIMIT, 'config file');
  if (read.truncated) throw new InputError(`the config file "${file}" is over ${CONFIG_LIMIT / 1024} KiB; it holds a few options.`);
  let input: unknown;
  try {
    input = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new InputError(
      `the config file "${file}" is not JSON (${detail}); write one object, e.g. { "userAgent": "MyBot/1.0 (+https://example.com/bot)" }.`,
    );
  }
  try {
    return resolveDisclose(input);
  } catch (error) {
    if (!(error instanceof InvalidOptionsError)) throw error;
    const field = error.option === 'options' ? '' : ` "${error.option}":`;
    throw new UsageError(`--config ${file}:${field} ${error.problem}`);
  }
}

/** The feed a previous run wrote in the directory; `undefined` when there is none. */
async function previousFeed(path: string): Promise<Feed | undefined> {
  try {
    await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputError(`cannot read "${path}": ${readProblem(error)}.`);
  }
  const read = await readBounded(path, FEED_LIMIT, 'feed');
  const feed = read.truncated ? undefined : readFeed(new TextDecoder().decode(read.bytes));
  if (feed === undefined)
    throw new InputError(
      `"${path}" is not a feed heed disclose wrote; move it away, or choose another --out, so that it is not overwritten.`,
    );
  return feed;
}

/** The previous run's `disclosure.json`, read to say what changed; `undefined` when unreadable (it is only for the summary). */
async function previousDisclosure(path: string): Promise<unknown> {
  try {
    const read = await readBounded(path, FEED_LIMIT, 'disclosure');
    return JSON.parse(new TextDecoder().decode(read.bytes)) as unknown;
  } catch {
    return undefined;
  }
}

/** An entry's summary: what changed since the entry before, then the disclosure in one sentence. */
function summaryOf(d: Disclosure, first: boolean, before: unknown): string {
  const changed = changedFields(before, d);
  const lead = first ? 'First disclosure. ' : changed.length > 0 ? `Changed: ${changed.join(', ')}. ` : '';
  const facts = [
    `Obeys the robots.txt groups of ${d.productTokens.join(', ')}, else *`,
    d.crawlDelay.honoured ? `Crawl-delay honoured up to ${d.crawlDelay.maxSecs} s` : 'Crawl-delay not read',
    d.usage.purposes.length === 0 ? 'no declared purpose' : `purposes: ${d.usage.purposes.join(', ')}`,
    d.records ? 'records kept' : 'no records',
    d.contact === null ? 'no contact' : `contact: ${d.contact}`,
  ];
  return `${lead}${facts.join('; ')}.`;
}

/** Written beside, then renamed over: a reader (a web server) never sees half a file. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, path);
  } catch (error) {
    throw new InputError(`cannot write "${path}": ${readProblem(error)}.`);
  }
}
