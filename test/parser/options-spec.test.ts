/**
 * The option table engine every Heed package declares its options with: one field per option, and
 * the known keys, defaults, checks and types derived from it, with one wording for every error.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineOptions, InvalidOptionsError, option, type OptionsInput, type ResolvedOptions } from '@heed/parser';

const CATEGORIES = ['train-ai', 'search', 'ai-input'] as const;

const sitemaps = defineOptions('Demo.attach()', {
  /** How deep sitemap indexes are followed. */
  maxDepth: option.number({ default: 3, min: 0, max: 10, integer: true }),
  strategy: option.choice({ default: 'same-hostname', values: ['all', 'same-hostname', 'same-origin'] }),
});

const demo = defineOptions(
  'Demo.attach()',
  {
    /** Seconds a fetch may take. */
    timeoutSecs: option.number({ default: 30, min: 0.001, max: 86_400, unit: 'seconds', why: 'one day' }),
    retryAfterSecs: option.number({ default: undefined, min: 0, max: 60, allowInfinity: true }),
    checkRedirects: option.boolean({ default: true }),
    mode: option.choice({ default: 'allow', values: ['allow', 'disallow'] }),
    purposes: option.list({
      values: CATEGORIES,
      item: 'usage category',
      items: 'usage categories',
      example: "e.g. purposes: ['train-ai']",
    }),
    onSkip: option.function<(url: string) => void>({ signature: '(url) => void' }),
    userAgent: option.custom<string>({
      check: (value, _name, fail) =>
        typeof value === 'string' && value !== '' ? value : fail('required: your crawler\'s User-Agent header, e.g. "MyBot/1.0".'),
    }),
    proxyUrl: option.custom<string | undefined>({
      default: undefined,
      check: (value, _name, fail) => (typeof value === 'string' && value.startsWith('http') ? value : fail('expected a proxy URL.')),
    }),
    sitemaps: option.object(sitemaps, { orFalse: true }),
  },
  { example: "{ userAgent: 'MyBot/1.0' }" },
);

/** The error `resolve(input)` throws, for its fields to be checked. */
function failure(input: unknown): InvalidOptionsError {
  try {
    demo.resolve(input);
  } catch (error) {
    if (error instanceof InvalidOptionsError) return error;
    throw error;
  }
  throw new Error(`resolve(${JSON.stringify(input)}) did not throw`);
}

const UA = { userAgent: 'MyBot/1.0' };

describe('defineOptions()', () => {
  it('fills in every default', () => {
    expect(demo.resolve(UA)).toEqual({
      timeoutSecs: 30,
      retryAfterSecs: undefined,
      checkRedirects: true,
      mode: 'allow',
      purposes: [],
      onSkip: undefined,
      userAgent: 'MyBot/1.0',
      proxyUrl: undefined,
      sitemaps: { maxDepth: 3, strategy: 'same-hostname' },
    });
    expect(demo.knownKeys).toEqual([
      'timeoutSecs',
      'retryAfterSecs',
      'checkRedirects',
      'mode',
      'purposes',
      'onSkip',
      'userAgent',
      'proxyUrl',
      'sitemaps',
    ]);
    expect(demo.defaults).toMatchObject({ timeoutSecs: 30, checkRedirects: true, mode: 'allow', purposes: [], userAgent: undefined });
    expect(demo.defaults.sitemaps).toEqual({ maxDepth: 3, strategy: 'same-hostname' });
  });

  it('treats undefined as absent and keeps the values given', () => {
    const onSkip = (): void => {};
    const resolved = demo.resolve({ ...UA, timeoutSecs: undefined, checkRedirects: false, mode: 'disallow', onSkip });
    expect(resolved).toMatchObject({ timeoutSecs: 30, checkRedirects: false, mode: 'disallow', onSkip });
  });

  it('names an unknown key, suggests the near one and lists the options', () => {
    const error = failure({ ...UA, timeoutSec: 5 });
    expect(error.option).toBe('timeoutSec');
    expect(error.message).toBe(
      'Invalid option "timeoutSec" of Demo.attach(): unknown option; did you mean "timeoutSecs"? The options are timeoutSecs, retryAfterSecs, checkRedirects, mode, purposes, onSkip, userAgent, proxyUrl, sitemaps.',
    );
    // Case is ignored when suggesting; a key far from every option gets no suggestion.
    expect(failure({ ...UA, CHECKREDIRECT: true }).message).toMatch(/did you mean "checkRedirects"\?/);
    expect(failure({ ...UA, respectRobotsTxtFile: true }).message).toMatch(
      /"respectRobotsTxtFile" of Demo\.attach\(\): unknown option\. The options are/,
    );
  });

  it('refuses what is not an options object, and reads null and undefined as no options', () => {
    for (const input of ['MyBot', 42, [UA]]) {
      const error = failure(input);
      expect(error.option).toBe('options');
      expect(error.message).toMatch(/expected an options object, e\.g\. \{ userAgent: 'MyBot\/1\.0' \}, got /);
    }
    expect(failure('MyBot').message).toMatch(/got "MyBot"\.$/);
    // No options at all still meets the required field's check, which says what to give.
    expect(failure(undefined)).toMatchObject({
      option: 'userAgent',
      message: expect.stringMatching(/required: your crawler's User-Agent/),
    });
    expect(failure(null).option).toBe('userAgent');
  });

  it('words number ranges, whole numbers and Infinity', () => {
    expect(failure({ ...UA, timeoutSecs: 0 }).problem).toBe(
      'expected a number of seconds from 0.001 to 86,400 (one day), got 0; the default is 30.',
    );
    expect(failure({ ...UA, timeoutSecs: Infinity }).problem).toMatch(/got Infinity; the default is 30\.$/);
    expect(failure({ ...UA, timeoutSecs: Number.NaN }).problem).toMatch(/got NaN;/);
    expect(failure({ ...UA, timeoutSecs: '5' }).problem).toMatch(/got "5";/);
    expect(failure({ ...UA, sitemaps: { maxDepth: 1.5 } })).toMatchObject({
      option: 'sitemaps.maxDepth',
      problem: 'expected a whole number from 0 to 10, got 1.5; the default is 3.',
    });
    // An option that documents Infinity accepts it and says so; with no default none is named.
    expect(demo.resolve({ ...UA, retryAfterSecs: Infinity }).retryAfterSecs).toBe(Infinity);
    expect(failure({ ...UA, retryAfterSecs: -1 }).problem).toBe('expected a number from 0 to 60, or Infinity, got -1.');
  });

  it('words booleans, choices and functions', () => {
    expect(failure({ ...UA, checkRedirects: 'yes' }).problem).toBe('expected true or false, got "yes"; the default is true.');
    expect(failure({ ...UA, mode: 'deny' }).problem).toBe("expected 'allow' or 'disallow', got \"deny\"; the default is 'allow'.");
    expect(failure({ ...UA, sitemaps: { strategy: 'same-site' } }).problem).toBe(
      "expected 'all', 'same-hostname' or 'same-origin', got \"same-site\"; the default is 'same-hostname'.",
    );
    expect(failure({ ...UA, onSkip: 'log' }).problem).toBe('expected a function (url) => void, got "log".');
  });

  it('reads a list of choices: each item checked with a suggestion, kept once, frozen', () => {
    expect(failure({ ...UA, purposes: 'train-ai' }).problem).toBe(
      'expected an array of usage categories, e.g. purposes: [\'train-ai\'], got "train-ai".',
    );
    expect(failure({ ...UA, purposes: ['train_ai'] }).problem).toBe(
      "\"train_ai\" is not a usage category; did you mean 'train-ai'? The usage categories are 'train-ai', 'search' or 'ai-input'.",
    );
    expect(failure({ ...UA, purposes: [1] }).problem).toMatch(/^1 is not a usage category\. /);
    const given = ['search', 'train-ai', 'search'];
    const { purposes } = demo.resolve({ ...UA, purposes: given });
    expect(purposes).toEqual(['search', 'train-ai']);
    expect(Object.isFrozen(purposes)).toBe(true);
  });

  it('reads a nested object with dotted names, false to turn it off and true for its defaults', () => {
    expect(demo.resolve({ ...UA, sitemaps: { maxDepth: 0 } }).sitemaps).toEqual({ maxDepth: 0, strategy: 'same-hostname' });
    expect(demo.resolve({ ...UA, sitemaps: false }).sitemaps).toBe(false);
    expect(demo.resolve({ ...UA, sitemaps: true }).sitemaps).toEqual({ maxDepth: 3, strategy: 'same-hostname' });
    expect(failure({ ...UA, sitemaps: { maxDepht: 2 } })).toMatchObject({
      option: 'sitemaps.maxDepht',
      message: expect.stringContaining('unknown option; did you mean "sitemaps.maxDepth"? The options are maxDepth, strategy.'),
    });
    expect(failure({ ...UA, sitemaps: 'on' }).problem).toBe('expected false (off) or an object of sitemaps options, got "on".');
  });

  it('runs a custom check on given values, and on absence only when there is no default', () => {
    expect(demo.resolve({ ...UA, proxyUrl: 'http://proxy:8000' }).proxyUrl).toBe('http://proxy:8000');
    expect(failure({ ...UA, proxyUrl: 'proxy:8000' })).toMatchObject({ option: 'proxyUrl', problem: 'expected a proxy URL.' });
    expect(failure({ userAgent: '' }).option).toBe('userAgent');
  });

  it('derives the input and resolved types from the table', () => {
    type Input = OptionsInput<typeof demo>;
    type Resolved = ResolvedOptions<typeof demo>;
    expectTypeOf<Input>().toEqualTypeOf<{
      readonly timeoutSecs?: number | undefined;
      readonly retryAfterSecs?: number | undefined;
      readonly checkRedirects?: boolean | undefined;
      readonly mode?: 'allow' | 'disallow' | undefined;
      readonly purposes?: readonly ('train-ai' | 'search' | 'ai-input')[] | undefined;
      readonly onSkip?: ((url: string) => void) | undefined;
      readonly userAgent?: string | undefined;
      readonly proxyUrl?: string | undefined;
      readonly sitemaps?:
        | boolean
        | { readonly maxDepth?: number | undefined; readonly strategy?: 'all' | 'same-hostname' | 'same-origin' | undefined }
        | undefined;
    }>();
    expectTypeOf<Resolved['timeoutSecs']>().toEqualTypeOf<number>();
    expectTypeOf<Resolved['retryAfterSecs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Resolved['mode']>().toEqualTypeOf<'allow' | 'disallow'>();
    expectTypeOf<Resolved['onSkip']>().toEqualTypeOf<((url: string) => void) | undefined>();
    expectTypeOf<Resolved['userAgent']>().toEqualTypeOf<string>();
    expectTypeOf<Resolved['sitemaps']>().toEqualTypeOf<
      { readonly maxDepth: number; readonly strategy: 'all' | 'same-hostname' | 'same-origin' } | false
    >();
    expectTypeOf(demo.resolve).returns.toEqualTypeOf<Resolved>();
  });
});
