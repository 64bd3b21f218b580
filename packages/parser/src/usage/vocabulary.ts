/**
 * The vocabularies of the two robots.txt usage signals, as data: which dictionary keys name which
 * usage category, and which tokens mean allow and disallow. The drafts still change; a new label or
 * category is one line here, and everything else (parsing, combining, lint) follows.
 *
 * - `Content-Usage` (IETF AIPREF, draft-ietf-aipref-vocab / -attach): labels are the categories
 *   themselves (`train-ai`, `search`; `ai-use` from the editor's copy after vocab-07), values the
 *   tokens `y` and `n`.
 * - `Content-Signal` (Cloudflare's Content Signals, contentsignals.org, draft-romm-aipref-contentsignals):
 *   `ai-train` is mapped to `train-ai`, `search` to `search`, and `ai-input` is kept as a category
 *   of its own (no AIPREF category has its meaning: input to a model at answer time, RAG). Values
 *   are the tokens `yes` and `no`. `use` (immediate | reference | full) names no category.
 */

/** A preference for one usage category (draft-ietf-aipref-vocab: allowed, disallowed or unknown). */
export type UsagePreference = 'allow' | 'disallow' | 'unknown';

/** Where a preference was stated: a `Content-Usage` or a `Content-Signal` line (or header). */
export type UsageSignal = 'content-usage' | 'content-signal';

/** The usage categories Heed knows. `preference()` accepts any string; others are always unknown. */
export const USAGE_CATEGORIES = ['train-ai', 'search', 'ai-input', 'ai-use'] as const;
export type UsageCategory = (typeof USAGE_CATEGORIES)[number];

export interface UsageVocabulary {
  readonly signal: UsageSignal;
  /** The key as written in files, for messages: `Content-Usage`. */
  readonly key: string;
  /** The token that allows a category, and the one that disallows it. */
  readonly allow: string;
  readonly disallow: string;
  /** Dictionary key (label) → usage category. */
  readonly labels: ReadonlyMap<string, UsageCategory>;
  /** Keys that belong to the signal but name no category: not reported as unknown. */
  readonly otherKeys: ReadonlySet<string>;
}

export const CONTENT_USAGE_VOCABULARY: UsageVocabulary = {
  signal: 'content-usage',
  key: 'Content-Usage',
  allow: 'y',
  disallow: 'n',
  labels: new Map([
    ['train-ai', 'train-ai'],
    ['search', 'search'],
    ['ai-use', 'ai-use'],
  ]),
  otherKeys: new Set(),
};

export const CONTENT_SIGNAL_VOCABULARY: UsageVocabulary = {
  signal: 'content-signal',
  key: 'Content-Signal',
  allow: 'yes',
  disallow: 'no',
  labels: new Map([
    ['ai-train', 'train-ai'],
    ['search', 'search'],
    ['ai-input', 'ai-input'],
  ]),
  otherKeys: new Set(['use']),
};

export const VOCABULARIES: Readonly<Record<UsageSignal, UsageVocabulary>> = {
  'content-usage': CONTENT_USAGE_VOCABULARY,
  'content-signal': CONTENT_SIGNAL_VOCABULARY,
};

/** The other signal's vocabulary: `yes` in a Content-Usage line is Content Signals' spelling. */
export function otherVocabulary(vocabulary: UsageVocabulary): UsageVocabulary {
  return vocabulary.signal === 'content-usage' ? CONTENT_SIGNAL_VOCABULARY : CONTENT_USAGE_VOCABULARY;
}
