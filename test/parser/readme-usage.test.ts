/**
 * The parser reference's AI-usage example runs as written: each `expression; // value` line of the
 * block under "AI-usage preferences" must evaluate to the value its comment states.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import * as parser from '@heed/parser';

const readme = readFileSync(fileURLToPath(new URL('../../packages/parser/docs/reference.md', import.meta.url)), 'utf8');
const section = readme.slice(readme.indexOf('## AI-usage preferences'));
const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';

it('has the example', () => {
  expect(block).toContain('robots.usage(');
});

it('gives the values its comments state', () => {
  const lines = block.split('\n');
  const setup: string[] = [];
  const checks: { expression: string; expected: unknown }[] = [];
  for (const line of lines) {
    if (line.startsWith('import ')) continue;
    const claim = /^(.*?);\s*\/\/\s*('(?:[^'\\]|\\.)*'|\{.*\})/.exec(line);
    if (claim === null) {
      setup.push(line);
      continue;
    }
    checks.push({ expression: claim[1] as string, expected: new Function(`return (${claim[2]});`)() });
  }
  expect(checks.length).toBeGreaterThanOrEqual(5);
  const body = `const { parseRobotsTxt } = parser;\n${setup.join('\n')}\nreturn [${checks.map((c) => c.expression).join(', ')}];`;
  const results = new Function('parser', body)(parser) as unknown[];
  checks.forEach((check, i) => expect(results[i], check.expression).toEqual(check.expected));
});
