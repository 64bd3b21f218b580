#!/usr/bin/env node
/**
 * `heed`: what a robots.txt really says. `heed check` asks the way a Heed crawler asks (through
 * the manager), `heed explain` judges URLs against one file, `heed lint` lists what crawlers read
 * differently from what the file says. Exit codes: 0 allowed / clean, 1 disallowed / errors
 * found, 2 bad usage (the problem and where the help is) or an input that cannot be read (one
 * line); with `--json` an error is a JSON document on stdout too.
 */
import { readFileSync } from 'node:fs';
import { commandOf, parseCommandLine, UsageError, type Invocation } from './args.js';
import { commandHelp, USAGE } from './help.js';
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
  if (invocation.kind === 'help')
    return { exitCode: 0, stdout: invocation.command === undefined ? USAGE : commandHelp(invocation.command) };
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
  const argv = process.argv.slice(2);
  // Known before the command line is read: a command line that cannot be read still asked for JSON.
  const json = argv.includes('--json');
  try {
    const result = await run(parseCommandLine(argv));
    process.stdout.write(result.stdout);
    return result.exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      // Thrown while reading the command line or by the command itself: either way, that command's help.
      const command = commandOf(argv);
      const help = `heed${command === undefined ? '' : ` ${command}`} --help`;
      report(json, { type: 'usage', message: error.message, help }, `heed: ${error.message}\nsee ${help}\n`);
      return 2;
    }
    if (error instanceof InputError) {
      report(json, { type: 'input', message: error.message }, `heed: ${error.message}\n`);
      return 2;
    }
    // Not the user's doing: one line, the stack only when asked for (HEED_DEBUG=1).
    const message = error instanceof Error ? error.message : String(error);
    const detail = error instanceof Error && process.env.HEED_DEBUG ? (error.stack ?? message) : message;
    report(json, { type: 'unexpected', message, command: commandOf(argv) ?? null }, `heed: unexpected error: ${detail}\n`);
    return 2;
  }
}

/** An error as `--json` gives it (one JSON document on stdout, as results are), or as the line for stderr. */
function report(json: boolean, error: Record<string, unknown>, line: string): void {
  if (json) process.stdout.write(`${JSON.stringify({ error }, null, 2)}\n`);
  else process.stderr.write(line);
}

// Set the code and let the event loop drain, so piped stdout is flushed before the process ends.
void main().then((code) => {
  process.exitCode = code;
});
