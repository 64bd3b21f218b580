/**
 * Hostile inputs as fast-check arbitraries, shared by the tests that check they never throw
 * (test/parser/usage.test.ts, test/manager/tdmrep.test.ts) and the stress run that times them
 * (test/stress/growth.stress.ts), so that both read the same shapes.
 */
import fc from 'fast-check';

/** Values for the RFC 9651 dictionary parser: its own syntax in any order, repeated up to and past the size limit. */
const piece = fc.constantFrom(
  ...'abzAZ09*-._=,;()"\\:?@%/ \t'.split(''),
  '=(',
  '=%"',
  '%c3%a9',
  '%zz',
  '=?1',
  '=@-1',
  '=:aGk=:',
  '=1.2345',
  '=-999999999999999',
  '\x80',
  '\u00ff',
  'train-ai=n',
  'search=y;a;b=("x" 1)',
);
export const hostileDictionaryValue = fc.oneof(
  fc.array(piece, { maxLength: 80 }).map((parts) => parts.join('')),
  // A fragment repeated to around the limit: where a quadratic step would show.
  fc.tuple(fc.array(piece, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1_000, max: 18_000 })).map(([parts, size]) => {
    const unit = parts.join('');
    return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  }),
);

/** tdmrep.json bodies: deep nesting anywhere, long strings, odd types, broken JSON of the same shapes. */
const nested = fc
  .tuple(fc.integer({ min: 1, max: 32_000 }), fc.constantFrom('[', '{"a":'), fc.constantFrom('1', '"x"', 'null', '[]', '{}'))
  .map(([depth, open, leaf]) => open.repeat(depth) + leaf + (open === '[' ? ']' : '}').repeat(depth));
const value = fc.oneof(
  nested,
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 3_000 }).map((s) => JSON.stringify(s)),
);
const rule = fc
  .record({ location: fc.oneof(value, fc.constant('"/a*b$"')), reservation: fc.oneof(value, fc.constantFrom('0', '1')), policy: value })
  .map(({ location, reservation, policy }) => `{"location":${location},"tdm-reservation":${reservation},"tdm-policy":${policy}}`);
export const hostileTdmRepBody = fc.oneof(
  fc.array(fc.oneof(rule, value), { maxLength: 6 }).map((items) => `[${items.join(',')}]`),
  nested,
  // Cut anywhere: broken JSON of the same shapes.
  fc.tuple(fc.array(rule, { maxLength: 4 }), fc.nat()).map(([items, at]) => {
    const text = `[${items.join(',')}]`;
    return text.slice(0, at % (text.length + 1));
  }),
);
