/**
 * `Retry-After` read strictly as RFC 9110 §10.2.3 defines it: `delay-seconds` (one or more digits)
 * or an `HTTP-date` (§5.6.7) in one of its three forms, IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`)
 * and the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`)
 * forms a recipient must still accept. Anything else is unreadable: `Date.parse` reads `soon 5` as a
 * date in 2001 and `5.5` as a year, which would pause for nothing instead of the caller's default.
 *
 * The grammar is case-sensitive, as the RFC says. The day name is required but not checked against
 * the date: the date alone says when, and the RFC asks recipients for no such check. A date that
 * does not exist (30 Feb, 24:00:00) is unreadable. Pure: the caller passes `now`.
 */

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(?<month>${MONTHS.join('|')})`;
const TIME = '(?<hour>\\d{2}):(?<minute>\\d{2}):(?<second>\\d{2})';

/** The three forms, each naming its fields (`year` of two digits in the RFC 850 form only). */
const HTTP_DATES = [
  // IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`
  new RegExp(`^${DAY}, (?<day>\\d{2}) ${MONTH} (?<year>\\d{4}) ${TIME} GMT$`),
  // rfc850-date: `Sunday, 06-Nov-94 08:49:37 GMT`
  new RegExp(`^${LONG_DAY}, (?<day>\\d{2})-${MONTH}-(?<year>\\d{2}) ${TIME} GMT$`),
  // asctime-date: `Sun Nov  6 08:49:37 1994` (the day two digits, or a space and one)
  new RegExp(`^${DAY} ${MONTH} (?<day>\\d{2}| \\d) ${TIME} (?<year>\\d{4})$`),
];

/**
 * `value` (a `Retry-After` header) as milliseconds from `now`: a date in the past is 0. `undefined`
 * when absent or unreadable, for the caller's own default.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  // Optional whitespace around a field value is spaces and tabs (RFC 9110 §5.5), nothing else.
  const text = value.replace(/^[ \t]+|[ \t]+$/g, '');
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = parseHttpDate(text, now);
  return at === undefined ? undefined : Math.max(0, at - now);
}

/** An HTTP-date in any of its three forms as ms since the epoch, or `undefined` (no such form, or no such time). */
function parseHttpDate(text: string, now: number): number | undefined {
  const fields = HTTP_DATES.map((form) => form.exec(text)?.groups).find((groups) => groups !== undefined);
  if (fields === undefined) return undefined;
  const day = Number(fields.day);
  const hour = Number(fields.hour);
  const minute = Number(fields.minute);
  const second = Number(fields.second);
  const month = MONTHS.indexOf(fields.month ?? '');
  const year = fields.year?.length === 2 ? fullYear(Number(fields.year), now) : Number(fields.year);
  // 23:59:60 is a leap second (the next minute's first); 24:00:00 is no time.
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  // 30 Feb rolls over into March: a day the month does not have is no date.
  if (date.getUTCDate() !== day) return undefined;
  return date.getTime() + ((hour * 60 + minute) * 60 + second) * 1000;
}

/**
 * The year of an RFC 850 date's two digits: RFC 9110 §5.6.7 reads one that would be more than 50
 * years in the future as the most recent past year with those digits.
 */
function fullYear(twoDigits: number, now: number): number {
  const thisYear = new Date(now).getUTCFullYear();
  const year = thisYear - (thisYear % 100) + twoDigits;
  return year > thisYear + 50 ? year - 100 : year;
}
