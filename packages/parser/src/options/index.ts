/**
 * Option tables: each options object is declared once, as a table of fields, from which its
 * known keys, defaults, input and resolved types and its checks all derive. Every Heed package
 * declares its options this way, so errors read alike everywhere.
 */
export { defineOptions, type DefineOptionsSettings } from './resolve.js';
export { option, type NumberSpec, type ListSpec, type ObjectSpec, type CustomCheck } from './fields.js';
export { describeValue } from './describe.js';
export type { OptionField, OptionsDefinition, OptionsInput, ResolvedOptions, Fail, FieldContext, OptionFields } from './spec.js';
