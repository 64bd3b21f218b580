/**
 * The parser under attack: random bytes, random text, random URLs and user-agents
 * never make it throw, and the invariants a caller builds on hold for any robots.txt:
 * `isAllowed` agrees with `explain`, an unrelated group changes nobody else's verdict, the longer
 * matching rule wins, and `explain` points at the line that holds the deciding rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decidingLineOfPacked, parseRobotsTxt, productToken, type ProductTokens, type RobotsTxt } from '@heed/parser';

const ORIGIN = 'https://example.com';

// --- arbitraries -----------------------------------------------------------------------------------

/** Product tokens a crawler asks about, including odd ones. */
const productTokens = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('HeedBot', 'heedbot', 'Googlebot', 'Googlebot-News', 'OtherBot', 'a', '*', '', 'Heed_Bot-2') },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

/** Pieces of paths and patterns: the characters that matter to matching, escapes, non-ASCII. */
const pathPiece = fc.constantFrom(
  '/',
  '/',
  'a',
  'b',
  'x',
  'ab',
  '-',
  '_',
  '.',
  '?',
  '=',
  '&',
  ';',
  '*',
  '$',
  '%',
  '%2F',
  '%2f',
  '%41',
  'A',
  'é',
  '日本',
  '#',
  ' ',
  'index.html',
  '/index.htm',
  'private',
  '.pdf',
  '%C3%A9',
);
const pieces = (maxLength: number) => fc.array(pathPiece, { maxLength }).map((parts) => parts.join(''));
/** Patterns mostly start with `/` (as real ones do), so that they match the URLs below. */
const pattern = fc.oneof({ weight: 3, arbitrary: pieces(4).map((rest) => '/' + rest) }, { weight: 1, arbitrary: pieces(8) });

const agentValue = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '*',
      'HeedBot',
      'heedbot',
      'HeedBot/1.0',
      'Googlebot',
      'Googlebot-News',
      'OtherBot',
      'a',
      '* ',
      '*bot',
      'Heed Bot',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const ruleKey = fc.constantFrom('Allow', 'allow', 'Disallow', 'disallow', 'DISALLOW', 'Dissallow', 'Disallowed', 'disalow');
const agentKey = fc.constantFrom('User-agent', 'user-agent', 'USER-AGENT', 'useragent', 'User agent');
const otherKey = fc.constantFrom('Sitemap', 'site-map', 'Crawl-delay', 'Host', 'Clean-param', 'Noindex', 'foo');
const separator = fc.constantFrom(':', ': ', ' : ', ':\t', ' ', '\t');
const comment = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }).map((text) => ` # ${text}`) },
);

const agentLine = fc.tuple(agentKey, separator, agentValue, comment).map((parts) => parts.join(''));
const ruleLine = fc.tuple(ruleKey, separator, pattern, comment).map((parts) => parts.join(''));
const noiseLine = fc.oneof(
  fc.tuple(otherKey, separator, fc.oneof(pattern, fc.string({ maxLength: 20 }))).map((parts) => parts.join('')),
  fc.constantFrom('', '   ', '# comment', 'garbage without separator here', ':', 'Disallow'),
  fc.string({ maxLength: 30 }),
);
/** A group as real files write it: user-agent lines, then rules, with the odd other line. */
const groupLines = fc
  .tuple(
    fc.array(agentLine, { minLength: 1, maxLength: 3 }),
    fc.array(fc.oneof({ weight: 5, arbitrary: ruleLine }, { weight: 1, arbitrary: noiseLine }), { maxLength: 6 }),
  )
  .map(([agents, rules]) => [...agents, ...rules]);
const lineEnding = fc.constantFrom('\n', '\n', '\r\n', '\r');

/** A robots.txt-shaped text: groups and noise lines, mixed line ends. */
const robotsText = fc
  .array(fc.oneof({ weight: 4, arbitrary: groupLines }, { weight: 1, arbitrary: noiseLine.map((line) => [line]) }), { maxLength: 8 })
  .chain((blocks) => {
    const lines = blocks.flat();
    return fc
      .array(lineEnding, { minLength: lines.length, maxLength: lines.length })
      .map((endings) => lines.map((line, i) => line + endings[i]).join(''));
  });

/** URLs a crawler might pass: well-formed ones that hit the patterns, random web URLs, garbage. */
const url = fc.oneof(
  { weight: 4, arbitrary: pieces(6).map((path) => `${ORIGIN}/${path}`) },
  { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: pieces(6) },
);

/** A few URLs to ask one file about. */
const someUrls = fc.array(url, { minLength: 1, maxLength: 5 });

/** A body as a crawler meets it: robots.txt-like text, or any bytes. */
const anyBody = fc.oneof(robotsText, fc.uint8Array({ maxLength: 1000 }));

/** Pieces that make `*` segments of 16 characters (the longest searched by hand) and longer (searched by `indexOf`). */
const longPiece = fc.constantFrom('0123456789abcdef', '0123456789abcdefg', 'private/index.html', '%C3%A9%C3%A9%C3%A9');
const longPieces = (maxLength: number) => fc.array(fc.oneof(pathPiece, longPiece), { maxLength }).map((parts) => parts.join(''));

/** A `*` group of a few rules, some with long segments, before robots.txt-like text: small sets, packed or not. */
const packableBody = fc
  .tuple(
    fc.array(
      fc.tuple(ruleKey, longPieces(5)).map(([key, rest]) => `${key}: /${rest}`),
      { maxLength: 12 },
    ),
    robotsText,
  )
  .map(([rules, rest]) => ['User-agent: *', ...rules, rest].join('\n'));

/**
 * A `*` group of 17 to 32 rules, many of them sharing a byte after `/` and some needing none (`/`,
 * `/*…`): sets at the packing's limit, packed or not as their `index.html` alternatives count.
 */
const manyRulesBody = fc
  .array(
    fc
      .tuple(ruleKey, fc.constantFrom('', 'a', 'b', 'p', '*', '%C3'), longPieces(3))
      .map(([key, second, rest]) => `${key}: /${second}${rest}`),
    { minLength: 17, maxLength: 32 },
  )
  .map((rules) => ['User-agent: *', ...rules].join('\n'));

/** URLs for packed sets: the usual ones, ones that hit the long segments, and `/robots.txt`. */
const packedUrls = fc.array(
  fc.oneof(
    url,
    longPieces(6).map((path) => `${ORIGIN}/${path}`),
    fc.constantFrom(`${ORIGIN}/robots.txt`, '/robots.txt', `${ORIGIN}/robots.txt?x`),
  ),
  { minLength: 1, maxLength: 6 },
);

/** Google's reading, or the RFC 9309 ones. */
const readings = fc.record({ decodeUnreservedEscapes: fc.boolean(), implicitRobotsTxtAllow: fc.boolean() });

/** At most this many rules are surely packed: each may add its `index.html` alternative, and 32 are packed. */
const MOST_PACKED_RULES = 16;

/**
 * Everything a caller can ask a parsed file, none of which may throw, and what must hold between
 * the answers on any input: `isAllowed` and `explain` agree, a deciding line is a line of the file
 * (0: no line decided), a crawl-delay is a finite non-negative number, sitemaps are single lines.
 */
function askEverything(robots: RobotsTxt, body: string | Uint8Array, target: string, agent: string): void {
  const explanation = robots.explain(target, agent);
  expect(robots.isAllowed(target, agent)).toBe(explanation.allowed);
  const lines = physicalLines(typeof body === 'string' ? body : new TextDecoder('latin1').decode(body)).length;
  expect(Number.isInteger(explanation.line), `line ${explanation.line}`).toBe(true);
  expect(explanation.line).toBeGreaterThanOrEqual(0);
  expect(explanation.line).toBeLessThanOrEqual(lines);
  if (explanation.line === 0) expect(explanation.allowed, 'nothing decided: allowed').toBe(true);
  const delay = robots.crawlDelay(agent);
  if (delay !== undefined) expect(Number.isFinite(delay) && delay >= 0, `crawl-delay ${delay}`).toBe(true);
  for (const sitemap of robots.sitemaps) expect(sitemap).not.toMatch(/[\r\n]/);
}

/** Physical lines as Google counts them: LF, CRLF and CR each end a line. */
function physicalLines(body: string): string[] {
  return body.split(/\r\n|\r|\n/);
}

// --- never throws ------------------------------------------------------------------------------------

describe('never throws', () => {
  it('on random bytes as robots.txt, with random URLs and user-agents', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), url, productTokens, (bytes, target, agent) => {
        askEverything(parseRobotsTxt(bytes), bytes, target, agent);
      }),
      { numRuns: 300 },
    );
  });

  it('on random text as robots.txt (any code points, lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), url, productTokens, (text, target, agent) => {
        askEverything(parseRobotsTxt(text), text, target, agent);
      }),
      { numRuns: 300 },
    );
  });

  it('on robots.txt-shaped text with random URLs and user-agents', () => {
    fc.assert(
      fc.property(robotsText, url, productTokens, (text, target, agent) => {
        askEverything(parseRobotsTxt(text), text, target, agent);
      }),
      { numRuns: 500 },
    );
  });

  it('on random bytes with a UTF-8 byte-order mark (or part of one) in front', () => {
    const bom = fc.constantFrom([0xef], [0xef, 0xbb], [0xef, 0xbb, 0xbf]);
    fc.assert(
      fc.property(bom, fc.uint8Array({ maxLength: 500 }), url, (prefix, bytes, target) => {
        const body = new Uint8Array([...prefix, ...bytes]);
        askEverything(parseRobotsTxt(body), body, target, 'HeedBot');
      }),
      { numRuns: 200 },
    );
  });

  it('on any string as user-agent header for productToken', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (header) => {
        const token = productToken(header);
        expect(token).toMatch(/^[A-Za-z_-]*$/);
      }),
    );
  });
});

// --- invariants --------------------------------------------------------------------------------------

describe('invariants', () => {
  it('isAllowed is explain().allowed', () => {
    fc.assert(
      fc.property(robotsText, someUrls, productTokens, (text, targets, agent) => {
        const robots = parseRobotsTxt(text);
        for (const target of targets) expect(robots.isAllowed(target, agent)).toBe(robots.explain(target, agent).allowed);
      }),
      { numRuns: 500 },
    );
  });

  it('decidingLine() is decide() in one number, on the first check (a walk) and compiled', () => {
    fc.assert(
      fc.property(anyBody, someUrls, productTokens, (body, targets, agent) => {
        const robots = parseRobotsTxt(body);
        const walked = parseRobotsTxt(body);
        for (const target of [...targets, ...targets]) {
          const { allowed, line } = robots.decide(target, agent);
          expect(walked.decidingLine(target, agent)).toBe(allowed ? line : -line);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('decidingLineOfPacked(packedRules()) is decidingLine(), with either reading option, short and long `*` segments', () => {
    fc.assert(
      fc.property(fc.oneof(anyBody, packableBody, manyRulesBody), readings, packedUrls, productTokens, (body, options, targets, agent) => {
        const robots = parseRobotsTxt(body, options);
        // Two checks: the first walks the rules, the second compiles them (a check of `/robots.txt`
        // may be answered by the implicit allow, before any rule is read).
        robots.decidingLine(`${ORIGIN}/`, agent);
        robots.decidingLine(`${ORIGIN}/`, agent);
        const packed = robots.packedRules(agent);
        const rules = robots.groupsFor(agent).flatMap((group) => group.rules);
        if (rules.length <= MOST_PACKED_RULES) expect(packed, 'a small set is packed').toBeDefined();
        if (packed === undefined) return;
        expect(robots.packedRules(agent), 'the very string, not a copy').toBe(packed);
        for (const target of targets) {
          expect(decidingLineOfPacked(packed, target), target).toBe(robots.decidingLine(target, agent));
          // The compiled check reads the same string: a fresh file's first check walks the rules instead.
          expect(decidingLineOfPacked(packed, target), `${target}, against the walk`).toBe(
            parseRobotsTxt(body, options).decidingLine(target, agent),
          );
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("ruleAt(decide().line) is explain().rule, read before the file's groups were built", () => {
    fc.assert(
      fc.property(anyBody, someUrls, productTokens, (body, targets, agent) => {
        for (const target of targets) {
          const robots = parseRobotsTxt(body);
          const rule = robots.ruleAt(robots.decide(target, agent).line);
          expect(rule).toEqual(robots.explain(target, agent).rule);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('crawlDelay() is the first crawl-delay of the groups that apply, as groupsFor() reads them', () => {
    // Crawl-delay lines anywhere: between a group's user-agent lines, after its rules, before any
    // group, repeated, invalid.
    const line = fc.constantFrom(
      'User-agent: HeedBot',
      'User-agent: *',
      'User-agent: other',
      'Disallow: /x',
      'Allow: /y',
      'Sitemap: https://example.com/s.xml',
      ...['1', '2.5', ' 3 ', '.5', '0', 'x', '-1', '', '1e3'].map((value) => `Crawl-delay: ${value}`),
    );
    const token = fc.constantFrom<ProductTokens>('HeedBot', 'other', 'nobody', ['other', 'HeedBot'], ['nobody']);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 14 }), token, (lines, agent) => {
        const text = lines.join('\n');
        const expected = parseRobotsTxt(text)
          .groupsFor(agent)
          .find((group) => group.crawlDelay !== undefined)?.crawlDelay;
        expect(parseRobotsTxt(text).crawlDelay(agent)).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it("sitemaps read from the table are the sitemaps of the file's objects", () => {
    fc.assert(
      fc.property(anyBody, (body) => {
        const fromObjects = parseRobotsTxt(body);
        void fromObjects.groups;
        expect(parseRobotsTxt(body).sitemaps).toEqual(fromObjects.sitemaps);
      }),
      { numRuns: 500 },
    );
  });

  it('isAllowed is explain().allowed on random bytes too', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1000 }), url, productTokens, (bytes, target, agent) => {
        const robots = parseRobotsTxt(bytes);
        expect(robots.isAllowed(target, agent)).toBe(robots.explain(target, agent).allowed);
      }),
      { numRuns: 200 },
    );
  });

  // The asking agent and an unrelated one: distinct product tokens, neither `*`.
  const agentPair = fc
    .tuple(fc.constantFrom('HeedBot', 'heedbot', 'Googlebot', 'a', 'OtherBot'), fc.constantFrom('UnrelatedBot', 'Bingbot', 'zz-top', 'x_y'))
    .filter(([asking, other]) => asking.toLowerCase() !== other.toLowerCase());
  const unrelatedRules = fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern), { minLength: 1, maxLength: 4 });

  it('a group for another agent, added in front, changes no verdict of the asking agent', () => {
    fc.assert(
      fc.property(robotsText, agentPair, unrelatedRules, someUrls, (text, [asking, other], rules, targets) => {
        const group = [`User-agent: ${other}`, ...rules.map(([key, value]) => `${key}: ${value}`)].join('\n') + '\n';
        const before = parseRobotsTxt(text);
        const after = parseRobotsTxt(group + text);
        for (const target of targets) expect(after.isAllowed(target, asking)).toBe(before.isAllowed(target, asking));
        expect(after.crawlDelay(asking)).toBe(before.crawlDelay(asking));
      }),
      { numRuns: 500 },
    );
  });

  it('a group for another agent, added at the end, changes no verdict of the asking agent', () => {
    fc.assert(
      fc.property(robotsText, agentPair, unrelatedRules, someUrls, (text, [asking, other], rules, targets) => {
        const before = parseRobotsTxt(text);
        // A user-agent line right after another one joins its group (Google's grouping), so the
        // new group is only unrelated when the file's last group already has its rules.
        const last = before.groups[before.groups.length - 1];
        fc.pre(last === undefined || last.rules.length > 0);
        const group = [`User-agent: ${other}`, ...rules.map(([key, value]) => `${key}: ${value}`)].join('\n');
        const after = parseRobotsTxt(`${text}\n${group}\n`);
        for (const target of targets) expect(after.isAllowed(target, asking)).toBe(before.isAllowed(target, asking));
      }),
      { numRuns: 500 },
    );
  });

  // Literal path text that the URL parser keeps as it is (no dot segments, escapes or specials).
  const plain = fc.stringMatching(/^[a-z0-9_-]{1,8}(\/[a-z0-9_-]{1,8}){0,3}$/);

  it('a longer matching allow beats a shorter matching disallow, in any order, with or without *', () => {
    fc.assert(
      fc.property(
        plain,
        plain,
        fc.oneof(plain, fc.constant('')),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('*', 'OtherBot', 'Googlebot', 'HeedBot'),
        (head, more, tail, allowFirst, starred, otherAgent) => {
          const disallow = `/${head}`;
          const allow = starred ? `/${head}*${more}` : `/${head}${more}`;
          const rules = allowFirst ? [`Allow: ${allow}`, `Disallow: ${disallow}`] : [`Disallow: ${disallow}`, `Allow: ${allow}`];
          const body = [`User-agent: ${otherAgent}`, 'Disallow: /', '', 'User-agent: HeedBot', ...rules].join('\n');
          const robots = parseRobotsTxt(body);
          fc.pre(robots.groupsFor('HeedBot').length === 1 && robots.groupsFor('HeedBot')[0]?.line === 4);
          const target = `${ORIGIN}/${head}${more}${tail}`;
          const verdict = robots.explain(target, 'HeedBot');
          expect(verdict.allowed).toBe(true);
          expect(verdict.line).toBe(allowFirst ? 5 : 6);
          expect(verdict.rule?.pattern).toBe(allow);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('and a longer matching disallow beats a shorter matching allow', () => {
    fc.assert(
      fc.property(plain, plain, fc.boolean(), (head, more, disallowFirst) => {
        const rules = disallowFirst ? [`Disallow: /${head}${more}`, `Allow: /${head}`] : [`Allow: /${head}`, `Disallow: /${head}${more}`];
        const robots = parseRobotsTxt(['User-agent: *', ...rules].join('\n'));
        const verdict = robots.explain(`${ORIGIN}/${head}${more}/page`, 'HeedBot');
        expect(verdict.allowed).toBe(false);
        expect(verdict.line).toBe(disallowFirst ? 2 : 3);
      }),
      { numRuns: 200 },
    );
  });

  it('the deciding line of explain is the line of the file that holds the deciding rule', () => {
    fc.assert(
      fc.property(robotsText, someUrls, productTokens, (text, targets, agent) => {
        const robots = parseRobotsTxt(text);
        const lines = physicalLines(text);
        for (const target of targets) {
          const verdict = robots.explain(target, agent);
          if (verdict.line === 0) {
            expect(verdict.rule).toBeUndefined();
            expect(verdict.allowed).toBe(true);
            continue;
          }
          expect(verdict.rule?.line).toBe(verdict.line);
          const written = lines[verdict.line - 1] ?? '';
          expect(written).toContain(verdict.rule?.pattern ?? '');
          // The line says allow or disallow (or one of the typos Google reads as disallow).
          expect(written.toLowerCase()).toMatch(verdict.rule?.directive === 'allow' ? /allow/ : /dis+al+o|diasllow|disallaw/);
          expect(verdict.groups.some((group) => group.rules.includes(verdict.rule as never))).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
