#!/usr/bin/env node
/**
 * `heed`: what a robots.txt really says. `heed check` asks the way a Heed crawler asks (through
 * the manager), `heed explain` judges URLs against one file, `heed lint` lists what crawlers read
 * differently from what the file says. Exit codes: 0 allowed / clean, 1 disallowed / errors
 * found, 2 bad usage (message and usage text) or an input that cannot be read (one line).
 */
import { readFileSync } from 'node:fs';
import { parseCommandLine, USAGE, UsageError, type Invocation } from './args.js';
import { checkCommand } from './check-command.js';
import { explainCommand } from './explain-command.js';
import { lintCommand, type CommandResult } from './lint-command.js';
import { makeStyle, useColor } from './output.js';
import { InputError } from './source.js';

function version(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return manifest.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

async function run(invocation: Invocation): Promise<CommandResult> {
  if (invocation.kind === 'version') return { exitCode: 0, stdout: `heed ${version()}\n` };
  if (invocation.kind === 'help') return { exitCode: 0, stdout: USAGE };
  const { command, operands, options } = invocation;
  const style = makeStyle(!options.json && useColor(options.color, process.stdout, process.env));
  switch (command) {
    case 'lint':
      return lintCommand(operands[0] as string, options, style);
    case 'explain':
      return explainCommand(operands[0] as string, operands.slice(1), options, style);
    case 'check':
      return checkCommand(operands, options, style);
  }
}

async function main(): Promise<number> {
  try {
    const result = await run(parseCommandLine(process.argv.slice(2)));
    process.stdout.write(result.stdout);
    return result.exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`heed: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof InputError) {
      process.stderr.write(`heed: ${error.message}\n`);
      return 2;
    }
    // Not the user's doing: one line, the stack only when asked for (HEED_DEBUG=1).
    const detail = error instanceof Error ? (process.env.HEED_DEBUG ? (error.stack ?? error.message) : error.message) : String(error);
    process.stderr.write(`heed: unexpected error: ${detail}\n`);
    return 2;
  }
}

// Set the code and let the event loop drain, so piped stdout is flushed before the process ends.
void main().then((code) => {
  process.exitCode = code;
});
