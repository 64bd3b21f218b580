/**
 * An RFC 9651 (Structured Field Values for HTTP) Dictionary parser, strict and bounded: the
 * algorithm of RFC 9651 §4.2 step by step, so a value either parses exactly as every conforming
 * parser reads it, or fails as a whole. That is what the AI-preference vocabulary asks for: "If the
 * parsing of the Dictionary fails, preferences are unknown" (draft-ietf-aipref-vocab, Processing
 * Algorithm), including for upper-case keys.
 *
 * Input is a byte string (one char per byte): robots.txt values and header values are bytes, and a
 * byte ≥ 0x80 fails the parse (Structured Fields are ASCII). The cost is linear in the input; the
 * input, the members, the parameters and inner lists are bounded (hostile input stays cheap).
 */

/** Longest field value parsed: a robots.txt line is at most 16,663 bytes; headers rarely exceed 8 KiB. */
export const MAX_FIELD_BYTES = 16_384;
/** RFC 9651 §3.2: parsers must support at least 1,024 members. More fail the parse. */
export const MAX_MEMBERS = 1_024;
/** RFC 9651 §3.1.2 / §3.1.1: at least 256 parameters and 256 inner-list items. More fail the parse. */
export const MAX_PARAMETERS = 256;
export const MAX_INNER_LIST_ITEMS = 256;

/** A bare item (RFC 9651 §3.3). Byte sequences are kept as their base64 text. */
export type BareItem =
  | { readonly type: 'integer' | 'decimal' | 'date'; readonly value: number }
  | { readonly type: 'string' | 'token' | 'byte-sequence' | 'display-string'; readonly value: string }
  | { readonly type: 'boolean'; readonly value: boolean };

export type Parameters = ReadonlyMap<string, BareItem>;

/** A dictionary member: an item, or an inner list of items, each with parameters. */
export type DictionaryMember =
  | { readonly kind: 'item'; readonly value: BareItem; readonly parameters: Parameters }
  | {
      readonly kind: 'inner-list';
      readonly items: readonly { readonly value: BareItem; readonly parameters: Parameters }[];
      readonly parameters: Parameters;
    };

/** Why a dictionary failed: `uppercase-key` is told apart, since it is the classic mistake. */
export type FieldErrorKind = 'uppercase-key' | 'syntax' | 'not-ascii' | 'too-long' | 'too-many';

export type DictionaryResult =
  | { readonly ok: true; readonly dictionary: ReadonlyMap<string, DictionaryMember> }
  | {
      readonly ok: false;
      readonly error: FieldErrorKind;
      readonly message: string;
      /** 0-based offset in the input. */ readonly offset: number;
    };

class FieldError extends Error {
  constructor(
    readonly kind: FieldErrorKind,
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const TCHAR_EXTRA = "!#$%&'*+-.^_`|~:/";

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
function isLcAlpha(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}
function isUpper(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}
function isAlpha(code: number): boolean {
  return isLcAlpha(code) || isUpper(code);
}
function isKeyChar(code: number): boolean {
  return isLcAlpha(code) || isDigit(code) || code === 0x5f || code === 0x2d || code === 0x2e || code === 0x2a;
}
function isTokenChar(code: number): boolean {
  return isAlpha(code) || isDigit(code) || (code < 0x80 && TCHAR_EXTRA.includes(String.fromCharCode(code)));
}
function isBase64(code: number): boolean {
  return isAlpha(code) || isDigit(code) || code === 0x2b || code === 0x2f || code === 0x3d;
}

/** A cursor over the input. */
class Input {
  position = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.position >= this.text.length;
  }
  peek(): number {
    return this.text.charCodeAt(this.position);
  }
  fail(kind: FieldErrorKind, message: string, offset = this.position): never {
    throw new FieldError(kind, message, offset);
  }
  skipSpaces(): void {
    while (this.peek() === 0x20) this.position++;
  }
  /** OWS: SP and HTAB. */
  skipOws(): void {
    for (let code = this.peek(); code === 0x20 || code === 0x09; code = this.peek()) this.position++;
  }
}

/** Parses a Dictionary (RFC 9651 §4.2.2), as a whole field value. */
export function parseDictionary(input: string): DictionaryResult {
  if (input.length > MAX_FIELD_BYTES)
    return { ok: false, error: 'too-long', message: `the value is longer than ${MAX_FIELD_BYTES} bytes`, offset: MAX_FIELD_BYTES };
  for (let i = 0; i < input.length; i++) {
    if (input.charCodeAt(i) >= 0x80)
      return { ok: false, error: 'not-ascii', message: 'a byte outside ASCII (Structured Fields are ASCII only)', offset: i };
  }
  const cursor = new Input(input);
  try {
    cursor.skipSpaces();
    const dictionary = dictionaryMembers(cursor);
    cursor.skipSpaces();
    if (!cursor.done) cursor.fail('syntax', `unexpected \`${input[cursor.position]}\` after the last member`);
    return { ok: true, dictionary };
  } catch (error) {
    if (error instanceof FieldError) return { ok: false, error: error.kind, message: error.message, offset: error.offset };
    throw error;
  }
}

function dictionaryMembers(cursor: Input): Map<string, DictionaryMember> {
  const members = new Map<string, DictionaryMember>();
  while (!cursor.done) {
    const key = parseKey(cursor);
    let member: DictionaryMember;
    if (cursor.peek() === 0x3d) {
      cursor.position++;
      member = itemOrInnerList(cursor);
    } else {
      member = { kind: 'item', value: { type: 'boolean', value: true }, parameters: parseParameters(cursor) };
    }
    // The last of duplicate keys wins (RFC 9651 §4.2.2: overwrite). Delete first so the order is the last one's.
    members.delete(key);
    members.set(key, member);
    if (members.size > MAX_MEMBERS) cursor.fail('too-many', `more than ${MAX_MEMBERS} members`);
    cursor.skipOws();
    if (cursor.done) return members;
    if (cursor.peek() !== 0x2c) cursor.fail('syntax', `expected \`,\` between members, found \`${cursor.text[cursor.position]}\``);
    cursor.position++;
    cursor.skipOws();
    if (cursor.done) cursor.fail('syntax', 'a trailing `,` with no member after it');
  }
  return members;
}

function parseKey(cursor: Input): string {
  const start = cursor.position;
  const first = cursor.peek();
  if (isUpper(first)) cursor.fail('uppercase-key', 'keys must be lower-case');
  if (!isLcAlpha(first) && first !== 0x2a)
    cursor.fail('syntax', cursor.done ? 'a key is missing' : `a key cannot start with \`${cursor.text[start]}\``);
  cursor.position++;
  while (!cursor.done && isKeyChar(cursor.peek())) cursor.position++;
  // A key followed by a capital can never continue validly: name the real mistake.
  if (!cursor.done && isUpper(cursor.peek())) cursor.fail('uppercase-key', 'keys must be lower-case', start);
  return cursor.text.slice(start, cursor.position);
}

function itemOrInnerList(cursor: Input): DictionaryMember {
  if (cursor.peek() !== 0x28) {
    const value = bareItem(cursor);
    return { kind: 'item', value, parameters: parseParameters(cursor) };
  }
  cursor.position++;
  const items: { value: BareItem; parameters: Parameters }[] = [];
  while (!cursor.done) {
    cursor.skipSpaces();
    if (cursor.peek() === 0x29) {
      cursor.position++;
      return { kind: 'inner-list', items, parameters: parseParameters(cursor) };
    }
    const value = bareItem(cursor);
    items.push({ value, parameters: parseParameters(cursor) });
    if (items.length > MAX_INNER_LIST_ITEMS) cursor.fail('too-many', `more than ${MAX_INNER_LIST_ITEMS} items in an inner list`);
    const next = cursor.peek();
    if (next !== 0x20 && next !== 0x29) cursor.fail('syntax', 'inner-list items must be separated by a space');
  }
  return cursor.fail('syntax', 'an inner list without its closing `)`');
}

function parseParameters(cursor: Input): Map<string, BareItem> {
  const parameters = new Map<string, BareItem>();
  while (!cursor.done && cursor.peek() === 0x3b) {
    cursor.position++;
    cursor.skipSpaces();
    const key = parseKey(cursor);
    let value: BareItem = { type: 'boolean', value: true };
    if (cursor.peek() === 0x3d) {
      cursor.position++;
      value = bareItem(cursor);
    }
    parameters.set(key, value);
    if (parameters.size > MAX_PARAMETERS) cursor.fail('too-many', `more than ${MAX_PARAMETERS} parameters`);
  }
  return parameters;
}

function bareItem(cursor: Input): BareItem {
  const code = cursor.peek();
  if (code === 0x2d || isDigit(code)) return number(cursor);
  if (code === 0x22) return string(cursor);
  if (code === 0x2a || isAlpha(code)) return token(cursor);
  if (code === 0x3a) return byteSequence(cursor);
  if (code === 0x3f) return boolean(cursor);
  if (code === 0x40) {
    cursor.position++;
    const date = number(cursor);
    if (date.type !== 'integer') cursor.fail('syntax', 'a date must be an integer');
    return { type: 'date', value: date.value };
  }
  if (code === 0x25) return displayString(cursor);
  return cursor.fail(
    'syntax',
    cursor.done ? 'a value is missing after `=`' : `a value cannot start with \`${cursor.text[cursor.position]}\``,
  );
}

function number(cursor: Input): { type: 'integer' | 'decimal'; value: number } {
  const start = cursor.position;
  let sign = 1;
  if (cursor.peek() === 0x2d) {
    sign = -1;
    cursor.position++;
  }
  if (!isDigit(cursor.peek())) cursor.fail('syntax', 'a number needs a digit');
  const digitsStart = cursor.position;
  let decimal = false;
  let dot = -1;
  while (!cursor.done) {
    const code = cursor.peek();
    if (isDigit(code)) cursor.position++;
    else if (code === 0x2e && !decimal) {
      if (cursor.position - digitsStart > 12) cursor.fail('syntax', 'a decimal has at most 12 integer digits', start);
      decimal = true;
      dot = cursor.position;
      cursor.position++;
    } else break;
    const length = cursor.position - digitsStart;
    if (!decimal && length > 15) cursor.fail('syntax', 'an integer has at most 15 digits', start);
    if (decimal && length > 16) cursor.fail('syntax', 'a decimal is at most 16 characters', start);
  }
  const text = cursor.text.slice(digitsStart, cursor.position);
  if (!decimal) return { type: 'integer', value: sign * Number(text) };
  const fraction = cursor.position - dot - 1;
  if (fraction < 1 || fraction > 3) cursor.fail('syntax', 'a decimal has 1 to 3 digits after the `.`', start);
  return { type: 'decimal', value: sign * Number(text) };
}

function string(cursor: Input): BareItem {
  const start = cursor.position;
  cursor.position++;
  let value = '';
  while (!cursor.done) {
    const code = cursor.peek();
    cursor.position++;
    if (code === 0x5c) {
      const next = cursor.peek();
      if (next !== 0x22 && next !== 0x5c) cursor.fail('syntax', 'only `\\"` and `\\\\` are escapes in a string');
      value += String.fromCharCode(next);
      cursor.position++;
    } else if (code === 0x22) {
      return { type: 'string', value };
    } else if (code < 0x20 || code >= 0x7f) {
      cursor.fail('syntax', 'a control character in a string', cursor.position - 1);
    } else {
      value += String.fromCharCode(code);
    }
  }
  return cursor.fail('syntax', 'a string without its closing `"`', start);
}

function token(cursor: Input): BareItem {
  const start = cursor.position;
  cursor.position++;
  while (!cursor.done && isTokenChar(cursor.peek())) cursor.position++;
  return { type: 'token', value: cursor.text.slice(start, cursor.position) };
}

function byteSequence(cursor: Input): BareItem {
  const start = cursor.position;
  cursor.position++;
  while (!cursor.done && cursor.peek() !== 0x3a) {
    if (!isBase64(cursor.peek())) cursor.fail('syntax', 'a byte sequence holds base64 only');
    cursor.position++;
  }
  if (cursor.done) cursor.fail('syntax', 'a byte sequence without its closing `:`', start);
  cursor.position++;
  return { type: 'byte-sequence', value: cursor.text.slice(start + 1, cursor.position - 1) };
}

function boolean(cursor: Input): BareItem {
  cursor.position++;
  const code = cursor.peek();
  if (code !== 0x30 && code !== 0x31) cursor.fail('syntax', 'a boolean is `?0` or `?1`');
  cursor.position++;
  return { type: 'boolean', value: code === 0x31 };
}

function displayString(cursor: Input): BareItem {
  const start = cursor.position;
  cursor.position++;
  if (cursor.peek() !== 0x22) cursor.fail('syntax', 'a display string starts with `%"`');
  cursor.position++;
  const bytes: number[] = [];
  while (!cursor.done) {
    const code = cursor.peek();
    cursor.position++;
    if (code < 0x20 || code >= 0x7f) cursor.fail('syntax', 'a control character in a display string', cursor.position - 1);
    if (code === 0x25) {
      const hex = cursor.text.slice(cursor.position, cursor.position + 2);
      if (!/^[0-9a-f]{2}$/.test(hex)) cursor.fail('syntax', 'a display string escapes bytes as `%` and two lower-case hex digits');
      bytes.push(parseInt(hex, 16));
      cursor.position += 2;
    } else if (code === 0x22) {
      try {
        return { type: 'display-string', value: new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes)) };
      } catch {
        return cursor.fail('syntax', 'a display string that is not valid UTF-8', start);
      }
    } else {
      bytes.push(code);
    }
  }
  return cursor.fail('syntax', 'a display string without its closing `"`', start);
}
