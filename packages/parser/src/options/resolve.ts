/**
 * `defineOptions()`: an option table, and the one reading of an options object every table
 * shares. An unknown key is an error (a typo must not be silently ignored), named with the known
 * key it was probably meant to be; each field then checks its own value.
 */
import { InvalidOptionsError } from '../errors.js';
import { describeValue, didYouMean } from './describe.js';
import type { DefaultsOfFields, FieldContext, OptionFields, OptionsDefinition, OutputOfFields } from './spec.js';

/** How a table words what is not an options object. */
export interface DefineOptionsSettings {
  /**
   * A short valid options object shown when the input is not one, e.g. `'{ ignore: [\'missing-user-agent\'] }'`.
   * @default none
   */
  readonly example?: string;
}

/**
 * Declares the options of `where` (named in every error, e.g. `'lint()'`): one field per option,
 * built with `option.*`, each carrying its TSDoc. Derive the caller's type with
 * `OptionsInput<typeof definition>` and the resolved one with `ResolvedOptions<typeof definition>`.
 */
export function defineOptions<const F extends OptionFields>(
  where: string,
  fields: F,
  settings: DefineOptionsSettings = {},
): OptionsDefinition<F> {
  const knownKeys = Object.keys(fields) as (keyof F & string)[];
  const defaults = Object.fromEntries(knownKeys.map((key) => [key, fields[key]?.default])) as DefaultsOfFields<F>;
  const example = settings.example === undefined ? '' : `, e.g. ${settings.example}`;
  return Object.freeze({
    where,
    fields,
    knownKeys: Object.freeze(knownKeys),
    defaults: Object.freeze(defaults),
    resolve(input: unknown): OutputOfFields<F> {
      if (input === undefined || input === null) return readFields(fields, {}, where, '');
      if (!isRecord(input))
        throw new InvalidOptionsError('options', `expected an options object${example}, got ${describeValue(input)}.`, where);
      return readFields(fields, input, where, '');
    },
  });
}

/** A plain object (not null, not an array): what an options object must be. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads `input` against `fields`: unknown keys first, then each field in declaration order.
 * `prefix` is put before every name (`'sitemaps.'` for a nested table).
 */
export function readFields<F extends OptionFields>(
  fields: F,
  input: Readonly<Record<string, unknown>>,
  where: string,
  prefix: string,
): OutputOfFields<F> {
  const known = Object.keys(fields);
  for (const key of Object.keys(input)) {
    if (Object.hasOwn(fields, key)) continue;
    const hint = didYouMean(key, known);
    throw new InvalidOptionsError(
      `${prefix}${key}`,
      `unknown option${hint === undefined ? '.' : `; did you mean "${prefix}${hint}"?`} The options are ${known.join(', ')}.`,
      where,
    );
  }
  const out: Record<string, unknown> = {};
  for (const key of known) {
    const name = `${prefix}${key}`;
    const at: FieldContext = {
      name,
      where,
      fail: (problem) => {
        throw new InvalidOptionsError(name, problem, where);
      },
    };
    out[key] = (fields[key] as F[keyof F]).read(input[key], at);
  }
  return out as OutputOfFields<F>;
}
