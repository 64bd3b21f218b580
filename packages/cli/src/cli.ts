/**
 * The `heed` command line as a function: read the arguments, run the command, write its result or
 * its error, and answer the exit code. Everything it takes from the process (the output streams,
 * whether stdout is a terminal, the environment) comes in through {@link HeedIo}, so the same code
 * runs as the `heed` process (heed.ts hands it the process's own) and in-process, where a caller
 * collects what it writes without starting a Node.js process per command line.
 */
import { printable } from '@heed/parser';
import { readFileSync } from 'node:fs';
import { commandOf, parseCommandLine, UsageError, type Invocation } from './args.js';
import { commandHelp, USAGE } from './help.js';
import { auditCommand } from './audit-command.js';
import { checkCommand } from './check-command.js';
import { discloseCommand } from './disclose-command.js';
import { explainCommand } from './explain-command.js';
import { keysCommand } from './keys-command.js';
import { lintCommand, type CommandResult } from './lint-command.js';
import { makeStyle, useColor } from './output.js';
import { InputError } from './source.js';

/** Where `heed` writes: `process.stdout` and `process.stderr`, or anything that collects text. */
export interface OutputStream {
  write(text: string): unknown;
  /** Whether the stream is a terminal; only stdout's is read, to decide on colour. Absent: not a terminal. */
  readonly isTTY?: boolean;
}

/** What `heed` takes from the process it runs in. */
export interface HeedIo {
  /** Results, and errors too with `--json`; its `isTTY` is what turns colour on by default. */
  readonly stdout: OutputStream;
  /** Errors, one line each (without `--json`). */
  readonly stderr: OutputStream;
  /** The environment: `NO_COLOR` and `FORCE_COLOR` decide colour, `HEED_DEBUG` adds the stack to an unexpected error. */
  readonly env: NodeJS.ProcessEnv;
}

function version(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return manifest.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

async function run(invocation: Invocation, io: HeedIo): Promise<CommandResult> {
  if (invocation.kind === 'version') return { exitCode: 0, stdout: `heed ${version()}\n` };
  if (invocation.kind === 'help')
    return { exitCode: 0, stdout: invocation.command === undefined ? USAGE : commandHelp(invocation.command) };
  const { command, operands, options } = invocation;
  const style = makeStyle(!options.json && useColor(options.color, io.stdout, io.env));
  switch (command) {
    case 'lint':
      return lintCommand(operands[0] as string, options, style);
    case 'explain':
      return explainCommand(operands[0] as string, operands.slice(1), options, style);
    case 'check':
      return checkCommand(operands, options, style);
    case 'audit':
      return auditCommand(operands[0] as string, options, style, io.stderr);
    case 'disclose':
      return discloseCommand(options, style);
    case 'keys':
      return keysCommand(operands, options, style);
  }
}

/**
 * Runs the command line `argv` (the arguments after `heed`) and resolves to its exit code: 0
 * allowed / clean, 1 disallowed / errors found, 2 bad usage or an unreadable input. It never
 * rejects for the user's input: every error is written to `io` and answered with 2.
 */
export async function runHeed(argv: readonly string[], io: HeedIo): Promise<number> {
  // Known before the command line is read: a command line that cannot be read still asked for JSON.
  const json = argv.includes('--json');
  /** An error as `--json` gives it (one JSON document on stdout, as results are), or as the line for stderr. */
  const report = (error: Record<string, unknown>, line: string): void => {
    if (json) io.stdout.write(`${JSON.stringify({ error }, null, 2)}\n`);
    else io.stderr.write(line);
  };
  try {
    const result = await run(parseCommandLine(argv), io);
    io.stdout.write(result.stdout);
    return result.exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      // Thrown while reading the command line or by the command itself: either way, that command's help.
      const command = commandOf(argv);
      const help = `heed${command === undefined ? '' : ` ${command}`} --help`;
      report({ type: 'usage', message: error.message, help }, `heed: ${printable(error.message)}\nsee ${help}\n`);
      return 2;
    }
    if (error instanceof InputError) {
      // An error can quote a server or a file (a redirect's Location, a path): escaped.
      report({ type: 'input', message: error.message }, `heed: ${printable(error.message)}\n`);
      return 2;
    }
    // Not the user's doing: one line, the stack only when asked for (HEED_DEBUG=1).
    const message = error instanceof Error ? error.message : String(error);
    const detail = error instanceof Error && io.env.HEED_DEBUG ? (error.stack ?? message) : message;
    report({ type: 'unexpected', message, command: commandOf(argv) ?? null }, `heed: unexpected error: ${printable(detail)}\n`);
    return 2;
  }
}
