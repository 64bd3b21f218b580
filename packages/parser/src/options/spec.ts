/**
 * The types of an option table: a field per option, and the input and resolved types derived from
 * the table, so an option is declared once (its field, with its TSDoc) and its input type, its
 * resolved type, the list of known keys and the defaults all follow from that one declaration.
 */

/** Throws the option error for the field at hand: `problem` says what is wrong and what to do. */
export type Fail = (problem: string) => never;

/** Where a field is read: its dotted name, what takes it, and how to fail. */
export interface FieldContext {
  /** The option's dotted name as messages show it, e.g. `sitemaps.maxDepth`. */
  readonly name: string;
  /** What takes the options, e.g. `'parseRobotsTxt()'`. */
  readonly where: string;
  readonly fail: Fail;
}

/** Marks the type a field accepts; never set at run time. */
declare const INPUT: unique symbol;

/**
 * One option of a table, built by an `option.*` builder: `In` is what a caller may pass, `Out`
 * what the resolved options hold, `D` the declared default.
 */
export interface OptionField<In, Out, D = Out> {
  readonly [INPUT]?: In;
  /** Which builder made the field. */
  readonly kind: 'number' | 'boolean' | 'choice' | 'list' | 'function' | 'custom' | 'object';
  /** The value an absent option takes. */
  readonly default: D;
  /** Checks a value (`undefined` when absent) and returns what the resolved options hold; fails through `at.fail`. */
  readonly read: (value: unknown, at: FieldContext) => Out;
}

/** Any field, whatever it accepts and holds. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bound every concrete field meets
export type AnyField = OptionField<any, any, any>;

/** The fields of a table, by option name. */
export type OptionFields = Readonly<Record<string, AnyField>>;

/** What a caller may pass for a field. */
export type InputOf<F> = F extends OptionField<infer In, unknown, unknown> ? In : never;
/** What the resolved options hold for a field. */
export type OutputOf<F> = F extends OptionField<unknown, infer Out, unknown> ? Out : never;
/** A field's declared default. */
export type DefaultOf<F> = F extends OptionField<unknown, unknown, infer D> ? D : never;

/** Every option of `F`, optional, as a caller passes them (an explicit `undefined` means absent). */
export type InputOfFields<F extends OptionFields> = { readonly [K in keyof F]?: InputOf<F[K]> | undefined };
/** Every option of `F` with its default filled in. */
export type OutputOfFields<F extends OptionFields> = { readonly [K in keyof F]: OutputOf<F[K]> };
/** The declared default of every option of `F`. */
export type DefaultsOfFields<F extends OptionFields> = { readonly [K in keyof F]: DefaultOf<F[K]> };

/** An option table made by `defineOptions()`: what takes the options, its fields, and what derives from them. */
export interface OptionsDefinition<F extends OptionFields> {
  /** What takes these options, named in every error, e.g. `'parseRobotsTxt()'`. */
  readonly where: string;
  /** The fields as declared. */
  readonly fields: F;
  /** The option names, in declaration order (listed in the unknown-option error). */
  readonly knownKeys: readonly (keyof F & string)[];
  /** The declared default of every option. */
  readonly defaults: DefaultsOfFields<F>;
  /**
   * Checks `input` and fills in the defaults. `undefined` and `null` mean no options. Throws
   * `InvalidOptionsError` for the first fault: a value that is not an options object, an unknown
   * key (with a "did you mean" when one is near), or a value its field refuses.
   */
  resolve(input: unknown): OutputOfFields<F>;
}

/** The options a definition accepts: every key optional, with the TSDoc written on its field. */
export type OptionsInput<D> = D extends OptionsDefinition<infer F> ? InputOfFields<F> : never;

/** The options a definition resolves to: every key present, defaults filled in. */
export type ResolvedOptions<D> = D extends OptionsDefinition<infer F> ? OutputOfFields<F> : never;
