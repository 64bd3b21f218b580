/**
 * Option tables: each options object is declared once, as a table of fields, from which its
 * known keys, defaults, input and resolved types and its checks all derive. Every Heed package
 * declares its options this way, so errors read alike everywhere.
 */
export { defineOptions, type DefineOptionsSettings } from './resolve.js';
export { option, type NumberSpec, type ListSpec, type ObjectSpec, type CustomCheck } from './fields.js';
export { describeValue } from './describe.js';
export type { OptionField, OptionsDefinition, OptionsInput, ResolvedOptions, Fail, FieldContext, OptionFields } from './spec.js';
// What the derived types expand to: exported so that a package declaring its options with a table
// can emit declarations for them (TypeScript names these types in the emitted `.d.ts`).
export type { InputOfFields, OutputOfFields, DefaultsOfFields } from './spec.js';
