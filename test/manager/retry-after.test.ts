/**
 * `Retry-After` read as RFC 9110 §10.2.3 writes it, as a table: `delay-seconds`, or an HTTP-date in
 * its three forms (§5.6.7); everything else is unreadable, so the caller's default holds. The
 * manager reads robots.txt's `Retry-After` with it, and the plugin a page's.
 */
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '@heed/manager';

const NOW = Date.UTC(2026, 0, 1, 0, 0, 0);

describe('parseRetryAfter', () => {
  it.each([
    ['delay-seconds', '12', 12_000],
    ['zero seconds', '0', 0],
    ['seconds with spaces and tabs around them', ' \t5\t ', 5_000],
    ['an IMF-fixdate', 'Thu, 01 Jan 2026 00:00:10 GMT', 10_000],
    ['an RFC 850 date', 'Thursday, 01-Jan-26 00:00:10 GMT', 10_000],
    ['an asctime date, day of one digit', 'Thu Jan  1 00:00:10 2026', 10_000],
    ['an asctime date, day of two digits', 'Sat Jan 10 00:00:00 2026', 9 * 86_400_000],
    ['a leap second', 'Thu, 01 Jan 2026 00:00:60 GMT', 60_000],
    ['a date in the past: no wait', 'Wed, 31 Dec 2025 23:00:00 GMT', 0],
    ['an RFC 850 year more than 50 years ahead: the last century', 'Sunday, 06-Nov-94 08:49:37 GMT', 0],
    ['a day name that does not match the date: the date decides', 'Mon, 01 Jan 2026 00:00:10 GMT', 10_000],
  ])('%s: %j', (_what, header, ms) => {
    expect(parseRetryAfter(header, NOW)).toBe(ms);
  });

  it.each([
    // Date.parse reads each of these as some date (`soon 5`: May 2001), and the wait would be 0.
    ['words before a number', 'soon 5'],
    ['a number in words', 'in 5 seconds'],
    ['a fraction', '1.5'],
    ['a sign', '-1'],
    ['a plus sign', '+5'],
    ['a number and a unit', '5s'],
    ['an ISO 8601 date', '2026-01-01T00:00:10Z'],
    ['a date without its day name', '01 Jan 2026 00:00:10 GMT'],
    ['a zone other than GMT', 'Thu, 01 Jan 2026 00:00:10 UTC'],
    ['lower case', 'thu, 01 jan 2026 00:00:10 gmt'],
    ['a day of one digit in an IMF-fixdate', 'Thu, 1 Jan 2026 00:00:10 GMT'],
    ['a short day name in an RFC 850 date', 'Thu, 01-Jan-26 00:00:10 GMT'],
    ['a day the month does not have', 'Mon, 30 Feb 2026 00:00:00 GMT'],
    ['hour 24', 'Thu, 01 Jan 2026 24:00:00 GMT'],
    ['minute 60', 'Thu, 01 Jan 2026 00:60:00 GMT'],
    ['day 00', 'Thu, 00 Jan 2026 00:00:00 GMT'],
    ['two dates', 'Thu, 01 Jan 2026 00:00:10 GMT, Thu, 01 Jan 2026 00:00:20 GMT'],
    ['empty', ''],
    ['a line break around digits', '\n5'],
  ])('%s: %j is unreadable', (_what, header) => {
    expect(parseRetryAfter(header, NOW)).toBeUndefined();
  });

  it('reads no header as none', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });
});
