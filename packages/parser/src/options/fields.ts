/**
 * The field builders of an option table (`option.number`, `option.boolean`, ...): each one
 * declares a kind of option with its default and words its errors the way every Heed package
 * does, naming the option, what it expects, what it got and the default.
 */
import { describeValue, didYouMean, formatNumber, listChoices } from './describe.js';
import { isRecord, readFields } from './resolve.js';
import type { DefaultsOfFields, Fail, InputOfFields, OptionField, OptionFields, OptionsDefinition, OutputOfFields } from './spec.js';

/** A number option: its range, and how messages name it. */
export interface NumberSpec<D extends number | undefined> {
  /** The value when absent; `undefined` leaves it unset. */
  readonly default: D;
  readonly min: number;
  /** @default `Number.MAX_SAFE_INTEGER` (worded "upward") */
  readonly max?: number;
  /** Only whole numbers. @default false */
  readonly integer?: boolean;
  /** Named in the message: `'seconds'`, `'bytes'`. @default none */
  readonly unit?: string;
  /** Why the bound is what it is, named in the message, e.g. `'one day'`. @default none */
  readonly why?: string;
  /** `Infinity` is accepted, for an option that documents it as "never". @default false */
  readonly allowInfinity?: boolean;
}

/** A list option: items from `values` (or any strings), and how messages name an item. */
export interface ListSpec<V extends string> {
  /** @default [] */
  readonly default?: readonly V[];
  /** The items allowed; an item not among them is refused with a "did you mean". @default any string */
  readonly values?: readonly V[];
  /** What one item is, e.g. `'usage category'`. @default 'value' */
  readonly item?: string;
  /** What several are, e.g. `'usage categories'`. @default `item` + "s" */
  readonly items?: string;
  /** A valid value shown when the option is not a list, e.g. `"e.g. purposes: ['train-ai']"`. @default none */
  readonly example?: string;
}

/** A nested options object (e.g. `sitemaps: { ... }`). */
export interface ObjectSpec {
  /** `false` turns the feature off (resolved as `false`); `true` means its defaults. @default false */
  readonly orFalse?: boolean;
  /** What the message says is expected, e.g. `'false (off) or an object of sitemap options'`. @default worded from the name */
  readonly expected?: string;
}

/** A check of a kind of value owned by another package: returns the value to keep, or calls `fail`. */
export type CustomCheck<T> = (value: unknown, name: string, fail: Fail) => T;

function numberField<D extends number | undefined>(spec: NumberSpec<D>): OptionField<number, number | D, D> {
  const max = spec.max ?? Number.MAX_SAFE_INTEGER;
  const integer = spec.integer === true;
  const allowInfinity = spec.allowInfinity === true;
  return {
    kind: 'number',
    default: spec.default,
    read(value, at) {
      if (value === undefined) return spec.default;
      if (allowInfinity && value === Infinity) return value;
      if (typeof value === 'number' && Number.isFinite(value) && value >= spec.min && value <= max && (!integer || Number.isInteger(value)))
        return value;
      const what = `${integer ? 'a whole number' : 'a number'}${spec.unit === undefined ? '' : ` of ${spec.unit}`}`;
      const to = max === Number.MAX_SAFE_INTEGER ? ' upward' : ` to ${formatNumber(max)}`;
      const why = spec.why === undefined ? '' : ` (${spec.why})`;
      const fallback = spec.default === undefined ? '' : `; the default is ${formatNumber(spec.default)}`;
      return at.fail(
        `expected ${what} from ${formatNumber(spec.min)}${to}${why}${allowInfinity ? ', or Infinity' : ''}, got ${describeValue(value)}${fallback}.`,
      );
    },
  };
}

function booleanField(spec: { readonly default: boolean }): OptionField<boolean, boolean> {
  return {
    kind: 'boolean',
    default: spec.default,
    read(value, at) {
      if (value === undefined) return spec.default;
      if (typeof value === 'boolean') return value;
      return at.fail(`expected true or false, got ${describeValue(value)}; the default is ${String(spec.default)}.`);
    },
  };
}

function choiceField<const V extends string>(spec: { readonly default: V; readonly values: readonly V[] }): OptionField<V, V> {
  const values: readonly string[] = spec.values;
  return {
    kind: 'choice',
    default: spec.default,
    read(value, at) {
      if (value === undefined) return spec.default;
      if (typeof value === 'string' && values.includes(value)) return value as V;
      return at.fail(`expected ${listChoices(values)}, got ${describeValue(value)}; the default is '${spec.default}'.`);
    },
  };
}

function listField<const V extends string = string>(spec: ListSpec<V>): OptionField<readonly V[], readonly V[]> {
  const fallback: readonly V[] = Object.freeze([...(spec.default ?? [])]);
  const values: readonly string[] | undefined = spec.values;
  const item = spec.item ?? 'value';
  const items = spec.items ?? `${item}s`;
  return {
    kind: 'list',
    default: fallback,
    read(value, at) {
      if (value === undefined) return fallback;
      if (!Array.isArray(value))
        return at.fail(
          `expected an array of ${items}${spec.example === undefined ? '' : `, ${spec.example}`}, got ${describeValue(value)}.`,
        );
      for (const entry of value as readonly unknown[]) {
        if (typeof entry === 'string' && (values === undefined || values.includes(entry))) continue;
        if (values === undefined) return at.fail(`${describeValue(entry)} is not a ${item}: expected a string.`);
        const hint = typeof entry === 'string' ? didYouMean(entry, values) : undefined;
        return at.fail(
          `${describeValue(entry)} is not a ${item}${hint === undefined ? '.' : `; did you mean '${hint}'?`} The ${items} are ${listChoices(values)}.`,
        );
      }
      // Each item once, in the caller's order; frozen, so a later change to the caller's array cannot reach it.
      return Object.freeze([...new Set(value as V[])]);
    },
  };
}

function functionField<F extends (...args: never[]) => unknown>(spec: {
  readonly default: F;
  readonly signature?: string;
}): OptionField<F, F>;
function functionField<F extends (...args: never[]) => unknown>(spec?: {
  readonly signature?: string;
}): OptionField<F, F | undefined, undefined>;
function functionField<F extends (...args: never[]) => unknown>(
  spec: { readonly default?: F; readonly signature?: string } = {},
): OptionField<F, F | undefined, F | undefined> {
  const expected = spec.signature === undefined ? 'a function' : `a function ${spec.signature}`;
  return {
    kind: 'function',
    default: spec.default,
    read(value, at) {
      if (value === undefined) return spec.default;
      if (typeof value === 'function') return value as F;
      return at.fail(`expected ${expected}, got ${describeValue(value)}.`);
    },
  };
}

function customField<T>(spec: { readonly default: T; readonly check: CustomCheck<T> }): OptionField<T, T>;
function customField<T>(spec: { readonly check: CustomCheck<T> }): OptionField<T, T, undefined>;
function customField<T>(spec: { readonly default?: T; readonly check: CustomCheck<T> }): OptionField<T, T, T | undefined> {
  // Without a default the check sees absence too, so it can say what is required and how to give it.
  const hasDefault = 'default' in spec;
  return {
    kind: 'custom',
    default: spec.default,
    read(value, at) {
      if (value === undefined && hasDefault) return spec.default;
      return spec.check(value, at.name, at.fail);
    },
  };
}

function objectField<F extends OptionFields>(
  definition: OptionsDefinition<F>,
  spec: ObjectSpec & { readonly orFalse: true },
): OptionField<InputOfFields<F> | boolean, OutputOfFields<F> | false, DefaultsOfFields<F>>;
function objectField<F extends OptionFields>(
  definition: OptionsDefinition<F>,
  spec?: ObjectSpec,
): OptionField<InputOfFields<F>, OutputOfFields<F>, DefaultsOfFields<F>>;
function objectField<F extends OptionFields>(
  definition: OptionsDefinition<F>,
  spec: ObjectSpec = {},
): OptionField<InputOfFields<F> | boolean, OutputOfFields<F> | false, DefaultsOfFields<F>> {
  const orFalse = spec.orFalse === true;
  return {
    kind: 'object',
    default: definition.defaults,
    read(value, at) {
      // Errors name the nested option by its dotted path, for the caller that took the outer object.
      const prefix = `${at.name}.`;
      if (value === undefined || (orFalse && value === true)) return readFields(definition.fields, {}, at.where, prefix);
      if (orFalse && value === false) return false;
      if (isRecord(value)) return readFields(definition.fields, value, at.where, prefix);
      const expected = spec.expected ?? `${orFalse ? 'false (off) or ' : ''}an object of ${at.name} options`;
      return at.fail(`expected ${expected}, got ${describeValue(value)}.`);
    },
  };
}

/**
 * The field builders of an option table; pass their results to `defineOptions()`. Every builder
 * refuses what its kind cannot hold with an `InvalidOptionsError` that names the option, what it
 * expects, what it got and (where there is one) the default.
 */
export const option = Object.freeze({
  /** A finite number within `min`..`max` (whole with `integer`); `Infinity` only with `allowInfinity`. */
  number: numberField,
  /** `true` or `false`. */
  boolean: booleanField,
  /** One of `values`. */
  choice: choiceField,
  /** A list of `values` (or of any strings), each kept once, frozen. */
  list: listField,
  /** A function; `signature` shows what is expected, e.g. `'(event) => void'`. */
  function: functionField,
  /**
   * A value of a kind another package owns (a proxy URL, a store, a user-agent): `check` returns
   * what to keep or calls `fail(problem)`. Without a `default` the check is also called when the
   * option is absent, so a required option can say how to give it.
   */
  custom: customField,
  /** A nested options object, read against its own table; errors name `outer.inner`. */
  object: objectField,
});
