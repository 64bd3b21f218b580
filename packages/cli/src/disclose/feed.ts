/**
 * `feed.atom`: an Atom feed (RFC 4287) with one entry per distinct disclosure, newest first, so
 * site owners who follow it learn when the crawler's behaviour changed. An entry's id is the hash
 * of the disclosure it announces (`urn:sha256:…`): a run whose disclosure equals the newest entry's
 * adds nothing.
 *
 * The feed is read back only as this module writes it: the element lines in a fixed layout, the
 * entries kept as the exact text written before. No XML is parsed; a file in another layout is not
 * one heed wrote, and is left alone ({@link readFeed} answers `undefined`).
 */
import { randomUUID } from 'node:crypto';
import type { Disclosure } from './facts.js';
import { escapeMarkup as e } from './markup.js';

/** Entries kept: the newest first, older ones dropped. */
export const MAX_FEED_ENTRIES = 20;

export interface FeedEntry {
  readonly id: string;
  readonly updated: string;
  /** The entry as written, `<entry>` to `</entry>` and its line break. */
  readonly xml: string;
}

export interface Feed {
  readonly id: string;
  readonly entries: readonly FeedEntry[];
}

const HEAD = '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n';
const GENERATOR = '  <generator>heed disclose</generator>\n';
const ENTRY_OPEN = '  <entry>\n';
const ENTRY_CLOSE = '  </entry>\n';
const TAIL = '</feed>\n';
const ENTRY_ID = /^urn:sha256:[0-9a-f]{64}$/;
const FEED_ID = /^urn:uuid:[0-9a-f-]{36}$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** The text of the one `  <name>…</name>\n` line at `at`, or undefined. */
function lineValue(text: string, at: number, indent: string, name: string): { value: string; end: number } | undefined {
  const open = `${indent}<${name}>`;
  if (!text.startsWith(open, at)) return undefined;
  const close = text.indexOf(`</${name}>\n`, at + open.length);
  const newline = text.indexOf('\n', at);
  if (close === -1 || close > newline) return undefined;
  return { value: text.slice(at + open.length, close), end: close + name.length + 4 };
}

/** The feed `text` holds, when heed wrote it; `undefined` for any other file. */
export function readFeed(text: string): Feed | undefined {
  if (!text.startsWith(HEAD) || !text.endsWith(TAIL)) return undefined;
  const id = lineValue(text, HEAD.length, '  ', 'id');
  if (id === undefined || !FEED_ID.test(id.value)) return undefined;
  let at = text.indexOf(ENTRY_OPEN, id.end);
  const header = text.slice(id.end, at === -1 ? text.length - TAIL.length : at);
  if (!header.includes(GENERATOR)) return undefined;
  const entries: FeedEntry[] = [];
  while (at !== -1) {
    const end = text.indexOf(ENTRY_CLOSE, at);
    if (end === -1) return undefined;
    const entryId = lineValue(text, at + ENTRY_OPEN.length, '    ', 'id');
    const updated = entryId === undefined ? undefined : lineValue(text, entryId.end, '    ', 'updated');
    if (entryId === undefined || updated === undefined || !ENTRY_ID.test(entryId.value) || !TIME.test(updated.value)) return undefined;
    const next = end + ENTRY_CLOSE.length;
    entries.push({ id: entryId.value, updated: updated.value, xml: text.slice(at, next) });
    at = text.indexOf(ENTRY_OPEN, next);
    if (at !== -1 && at !== next) return undefined;
    if (at === -1 && next !== text.length - TAIL.length) return undefined;
  }
  return { id: id.value, entries };
}

/** A new entry announcing `disclosure`, whose content hash is `id`. */
export function feedEntry(id: string, disclosure: Disclosure, updated: string, summary: string): FeedEntry {
  const name = disclosure.productTokens.join(', ');
  const xml = [
    ENTRY_OPEN.trimEnd(),
    `    <id>${id}</id>`,
    `    <updated>${updated}</updated>`,
    `    <title>${e(name)}: disclosure of ${e(updated.slice(0, 10))}</title>`,
    '    <link rel="alternate" type="text/html" href="index.html"/>',
    `    <summary>${e(summary)}</summary>`,
    ENTRY_CLOSE,
  ].join('\n');
  return { id, updated, xml };
}

/** The feed's text: its head, written from the newest disclosure, then `entries` (at most {@link MAX_FEED_ENTRIES}). */
export function feedXml(feedId: string, disclosure: Disclosure, entries: readonly FeedEntry[]): string {
  const kept = entries.slice(0, MAX_FEED_ENTRIES);
  const name = disclosure.productTokens.join(', ');
  const contact = disclosure.contact;
  const author = [
    '  <author>',
    `    <name>${e(`The operator of ${name}`)}</name>`,
    ...(contact === null
      ? []
      : contact.startsWith('mailto:')
        ? [`    <email>${e(decodeSafe(contact.slice('mailto:'.length).split('?')[0] ?? ''))}</email>`]
        : [`    <uri>${e(contact)}</uri>`]),
    '  </author>',
  ];
  return [
    HEAD.trimEnd(),
    `  <id>${feedId}</id>`,
    `  <title>${e(name)}: crawler disclosure</title>`,
    `  <updated>${kept[0]?.updated ?? ''}</updated>`,
    '  <link rel="self" type="application/atom+xml" href="feed.atom"/>',
    '  <link rel="alternate" type="text/html" href="index.html"/>',
    ...author,
    GENERATOR.trimEnd(),
    kept.map((entry) => entry.xml).join('') + TAIL,
  ].join('\n');
}

/** A new feed id, kept by every later run in the same directory. */
export function newFeedId(): string {
  return `urn:uuid:${randomUUID()}`;
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
