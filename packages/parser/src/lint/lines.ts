/**
 * Line syntax: how each line was written, judged one line at a time from the tokenizer's metadata
 * (cut lines, missing colons, key spellings, comments, white space, capitals).
 */
import { classifyKey, MAX_LINE_BYTES, type TokenizedLine } from '../tokenize.js';
import { CANONICAL_KEY, keyColumn, type LintContext } from './context.js';
import { diagnostic, type Diagnostic } from './diagnostics.js';
import { EXTENSION_KEYS, suggestKey, UNSUPPORTED_KEYS } from './keys.js';

export function checkLines(context: LintContext, out: Diagnostic[]): void {
  for (const record of context.lines) {
    if (record.tooLong) {
      out.push(
        diagnostic(
          'line-too-long',
          record.line,
          `Line is ${record.byteLength.toLocaleString('en-US')} bytes; Google reads only the first ${MAX_LINE_BYTES.toLocaleString('en-US')} and ignores the rest. Split it, or shorten the pattern with \`*\`.`,
          { column: MAX_LINE_BYTES + 1 > record.text.length ? record.text.length : MAX_LINE_BYTES + 1 },
        ),
      );
    }
    if (record.kind === 'invalid') checkInvalid(record, out);
    if (record.kind === 'directive') checkDirectiveSyntax(record, out);
    if (record.leadingWhitespace && record.kind !== 'blank') {
      out.push(
        diagnostic(
          'leading-whitespace',
          record.line,
          'Line starts with white space. RFC 9309 parsers ignore it; some simple parsers do not recognise the key. Start the line with the key.',
          { column: 1 },
        ),
      );
    }
  }
}

/** Text of a line without its comment, trimmed. */
function content(record: TokenizedLine): string {
  const hash = record.text.indexOf('#');
  return (hash === -1 ? record.text : record.text.slice(0, hash)).trim();
}

function checkInvalid(record: TokenizedLine, out: Diagnostic[]): void {
  const text = content(record);
  const firstWord = /^\S+/.exec(text)?.[0] ?? '';
  const known = classifyKey(firstWord, false).directive;
  if (known !== 'other' && !text.includes(':')) {
    const words = text
      .slice(firstWord.length)
      .trim()
      .split(/\s+/)
      .filter((word) => word.length > 0);
    const canonical = CANONICAL_KEY[known];
    const usage = known === 'content-usage' || known === 'content-signal';
    const message =
      words.length === 0
        ? `\`${firstWord}\` alone, without a colon, is ignored by every parser. Write \`${canonical}: <value>\`${known === 'disallow' ? ' (an empty `Disallow:` allows everything)' : ''}.`
        : usage
          ? `\`${firstWord}\` has no colon and several words after it, so every reader ignores the line. Write \`${canonical}: ${words.join(' ')}\`.`
          : `\`${firstWord}\` has no colon and several words after it, so every parser (Google too) ignores the line. Write \`${canonical}: ${words[0]}\`, one value per line.`;
    out.push(diagnostic('missing-colon', record.line, message, { column: 1 + record.text.indexOf(firstWord) + firstWord.length }));
    return;
  }
  const column = record.text.length - record.text.trimStart().length + 1;
  const quoted = text.length > 60 ? text.slice(0, 57) + '...' : text;
  out.push(
    diagnostic(
      'invalid-line',
      record.line,
      `\`${quoted}\` is neither a comment nor a \`key: value\` line; every parser ignores it. Remove it, or make it a comment with \`#\`.`,
      { column },
    ),
  );
}

function checkDirectiveSyntax(record: TokenizedLine, out: Diagnostic[]): void {
  const key = record.key ?? '';
  const directive = record.directive ?? 'other';
  const column = keyColumn(record);

  const glued = gluedUrlKey(record);
  if (glued !== undefined) {
    // `Sitemap http://x/s.xml`: the URL's own colon became the separator.
    out.push(
      diagnostic(
        'missing-colon',
        record.line,
        `\`${glued.word}\` has no colon after it, so the URL's own colon is taken as the separator: the key reads \`${key}\` and the value \`${record.value ?? ''}\`. Write \`${glued.canonical}: ${glued.url}\`.`,
        { column: column + glued.word.length },
      ),
    );
  } else if (directive === 'other') {
    checkUnknownKey(record, key, column, out);
  } else {
    if (record.missingColon) {
      const who =
        directive === 'content-usage' || directive === 'content-signal'
          ? 'Heed reads the line anyway (as Google reads keys without a colon)'
          : 'Google reads the line anyway';
      out.push(
        diagnostic(
          'missing-colon',
          record.line,
          `\`${key}\` has no colon after it. ${who}; RFC 9309 parsers and most others ignore it. Write \`${CANONICAL_KEY[directive]}: ${record.value ?? ''}\`.`,
          { column: column + key.length },
        ),
      );
    }
    if (record.keyTypo) {
      out.push(
        diagnostic(
          'typo-accepted-by-google',
          record.line,
          `\`${key}\` is not a robots.txt key. Google reads it as \`${CANONICAL_KEY[directive]}\`, but RFC 9309 parsers and most other crawlers ignore the line. Write \`${CANONICAL_KEY[directive]}:\`.`,
          { column },
        ),
      );
    }
  }

  if (record.hasComment) {
    out.push(
      diagnostic(
        'end-of-line-comment',
        record.line,
        'A comment follows the directive on the same line. RFC 9309 parsers drop it; some simple parsers read it as part of the value. Put the comment on its own line.',
        { column: record.text.indexOf('#') + 1 },
      ),
    );
  }

  if (/[A-Z]/.test(key) && !/[a-z]/.test(key) && key.length > 1 && directive !== 'other') {
    out.push(
      diagnostic(
        'uppercase-key',
        record.line,
        `\`${key}\` is written in capitals. Keys are case-insensitive, but simple parsers compare them as written. Write \`${CANONICAL_KEY[directive]}\`.`,
        { column },
      ),
    );
  }
}

/** For `Sitemap http://x`: the key word and the URL that lost its scheme to the separator. */
function gluedUrlKey(record: TokenizedLine): { word: string; canonical: string; url: string } | undefined {
  const match = /^(\S+)\s+(https?)$/i.exec(record.key ?? '');
  const value = record.value ?? '';
  if (match === null || !value.startsWith('//')) return undefined;
  const word = match[1] ?? '';
  const known = classifyKey(word).directive;
  if (known === 'other') return undefined;
  return { word, canonical: CANONICAL_KEY[known], url: `${match[2] ?? 'http'}:${value}` };
}

function checkUnknownKey(record: TokenizedLine, key: string, column: number, out: Diagnostic[]): void {
  const lower = key.toLowerCase();
  if (lower === 'crawl-delay') return; // its own check (rules.ts)
  const bareUrl = /^https?$/i.test(key) && (record.value ?? '').startsWith('//');
  if (bareUrl || (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(key) && suggestKey(key) === undefined)) {
    // Not a key at all (`<!-- cached on:`, a bare `http://...` line): the line is just noise.
    const text = content(record);
    const quoted = text.length > 60 ? text.slice(0, 57) + '...' : text;
    out.push(
      diagnostic(
        'invalid-line',
        record.line,
        bareUrl
          ? `\`${quoted}\` is a bare URL, not a \`key: value\` line; every parser ignores it. If it is a sitemap, write \`Sitemap: ${text}\`.`
          : `\`${quoted}\` is not a \`key: value\` line any crawler understands; it is ignored. Remove it, or make it a comment with \`#\`.`,
        { column: record.text.length - record.text.trimStart().length + 1 },
      ),
    );
    return;
  }
  if (UNSUPPORTED_KEYS.has(lower)) {
    out.push(
      diagnostic(
        'unsupported-directive',
        record.line,
        `\`${key}:\` is not a robots.txt directive: Google stopped reading it in 2019 and others never did. To keep pages out of search results use a \`<meta name="robots" content="${lower}">\` tag or an \`X-Robots-Tag: ${lower}\` header; to stop crawling use \`Disallow:\`.`,
        { column },
      ),
    );
    return;
  }
  const suggestion = suggestKey(key);
  if (suggestion !== undefined) {
    out.push(
      diagnostic(
        'unknown-key-typo',
        record.line,
        `\`${key}\` is not a robots.txt key, so every crawler ignores this line. Did you mean \`${CANONICAL_KEY[suggestion]}:\`?`,
        { column },
      ),
    );
    return;
  }
  const extension = EXTENSION_KEYS.get(lower);
  if (record.missingColon && extension === undefined) {
    const text = content(record);
    out.push(
      diagnostic(
        'invalid-line',
        record.line,
        `\`${text}\` is neither a comment nor a \`key: value\` line; every parser ignores it. Remove it, or make it a comment with \`#\`.`,
        { column },
      ),
    );
    return;
  }
  out.push(
    diagnostic(
      'unknown-key',
      record.line,
      extension !== undefined
        ? `${extension}; Google and RFC 9309 parsers ignore it. Keep it only if you target that crawler.`
        : `\`${key}:\` is not a key RFC 9309 or Google knows; they ignore the line. Remove it, or make it a comment with \`#\`.`,
      { column },
    ),
  );
}
