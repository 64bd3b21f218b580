/**
 * The directive kinds, declared once. Their order is their number in the parser's directive table
 * (three bits of a row head), in the tokenizer's key classification and in `DirectiveKind`.
 */

/** The directives the parser gives meaning to, in table order. */
export const DIRECTIVE_KINDS = [
  'user-agent',
  'allow',
  'disallow',
  'sitemap',
  'crawl-delay',
  'other',
  'content-usage',
  'content-signal',
] as const;

/**
 * The directives the parser gives meaning to. Every other `key: value` line is `'other'`.
 * `content-usage` (IETF AIPREF) and `content-signal` (Cloudflare's Content Signals) state AI-usage
 * preferences; they never change what may be crawled (see `RobotsTxt#usage`).
 */
export type DirectiveKind = (typeof DIRECTIVE_KINDS)[number];

/** Each kind's number (its index in {@link DIRECTIVE_KINDS}). */
export const KIND: Readonly<Record<DirectiveKind, number>> = Object.freeze(
  Object.fromEntries(DIRECTIVE_KINDS.map((kind, index) => [kind, index])) as Record<DirectiveKind, number>,
);
