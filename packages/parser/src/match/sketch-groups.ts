/**
 * Sketch groups, for rule sets with many `*` rules. Hostile files repeat themselves: thousands of
 * `/*a*a*…*b` rules have few distinct prefixes, tails and sketches (first, longest and last
 * segment, see segments.ts). Rules that share all three pass or fail those tests together, so a
 * check tests each group once and walks the rules of a group only when it passes. Groups are then
 * split by the byte classes their rules need, so a check skips every group that needs a byte class
 * its path lacks without visiting it.
 */
import { ANCHORED, END, FLAGS, PREFIX_END, SPAN, STAR, START, TAIL_START } from './layout.js';
import type { SharedSegments } from './segments.js';

/** At most this many mask partitions; a rule set whose groups need more distinct masks gets one. */
const MASK_PARTITIONS = 64;

/**
 * The groups of a rule set. Group `g`'s rules, in precedence order, are
 * `rules[starts[g], starts[g + 1])`; groups are numbered in the order of their first rule.
 */
export interface SketchGroups {
  readonly starts: Int32Array;
  readonly rules: Int32Array;
  /** Per group: the byte classes every one of its rules needs. */
  readonly masks: Int32Array;
}

/**
 * Groups the `count` rules laid out in `spans`: each `*` rule joins the group of the rules with its
 * prefix, anchored tail and sketch; a rule without `*` is a group of its own. `masks`: each rule's
 * byte classes.
 */
export function groupBySketch(text: string, spans: Int32Array, masks: Int32Array, shared: SharedSegments, count: number): SketchGroups {
  const numbers = new Map<string, number>();
  const members: number[][] = [];
  for (let i = 0; i < count; i++) {
    const at = i * SPAN;
    const flags = spans[at + FLAGS] as number;
    if ((flags & STAR) === 0) {
      members.push([i]);
      continue;
    }
    const anchored = (flags & ANCHORED) !== 0;
    const prefix = text.slice(spans[at + START], spans[at + PREFIX_END]);
    const tail = anchored ? text.slice(spans[at + TAIL_START], spans[at + END]) : '';
    const key = `${prefix}\u0000${anchored ? '$' : ''}${tail}\u0000${shared.sketchKey(i, anchored)}`;
    const group = numbers.get(key);
    if (group === undefined) {
      numbers.set(key, members.length);
      members.push([i]);
    } else (members[group] as number[]).push(i);
  }
  const starts = new Int32Array(members.length + 1);
  const rules = new Int32Array(count);
  const groupMasks = new Int32Array(members.length);
  let filled = 0;
  members.forEach((list, group) => {
    starts[group] = filled;
    let mask = -1;
    for (const i of list) {
      rules[filled++] = i;
      mask &= masks[i] as number;
    }
    groupMasks[group] = mask;
  });
  starts[members.length] = filled;
  return { starts, rules, masks: groupMasks };
}

/**
 * The groups split by the byte classes they need, each part in ascending order: `masks[p]` is what
 * every group of `parts[p]` needs. Past {@link MASK_PARTITIONS} distinct masks, one part holds all
 * (each group's own mask is still tested).
 */
export function partitionByMask(groups: SketchGroups): { masks: Int32Array; parts: number[][] } {
  const byMask = new Map<number, number[]>();
  groups.masks.forEach((mask, group) => {
    const part = byMask.get(mask);
    if (part === undefined) byMask.set(mask, [group]);
    else part.push(group);
  });
  if (byMask.size > MASK_PARTITIONS) return { masks: new Int32Array(1), parts: [Array.from(groups.masks.keys())] };
  return { masks: new Int32Array(byMask.keys()), parts: [...byMask.values()] };
}
