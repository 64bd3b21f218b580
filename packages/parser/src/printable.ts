/**
 * Text from the network or a file, made safe to print: a robots.txt line, a `Sitemap:` URL, a
 * server's error message can carry bytes a terminal obeys (ESC sequences that move the cursor,
 * retitle the window or clear the screen; BEL; a carriage return or newline that forges a log line
 * of its own; bidirectional overrides that reorder what is shown). Every line Heed prints that
 * holds such text (the CLI's output, the crawl's log lines) passes through {@link printable}; the
 * JSON outputs escape them by JSON's rules.
 */

/**
 * What a terminal obeys or reorders: C0 controls (tab and newline included: a log line is one
 * line), DEL, C1 controls (`\x9b` is a CSI on its own), the line and paragraph separators, and the
 * bidirectional marks, embeddings, overrides and isolates.
 */
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every character a terminal would obey written as an escape: `\x1b`, `\u202e`. */
export function printable(text: string): string {
  UNPRINTABLE.lastIndex = 0;
  if (!UNPRINTABLE.test(text)) return text;
  return text.replace(UNPRINTABLE, (char) => {
    const code = char.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
