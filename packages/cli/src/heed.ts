#!/usr/bin/env node
/**
 * `heed`: what a robots.txt really says. `heed check` asks the way a Heed crawler asks (through
 * the manager), `heed explain` judges URLs against one file, `heed lint` lists what crawlers read
 * differently from what the file says. Exit codes: 0 allowed / clean, 1 disallowed / errors
 * found, 2 bad usage (the problem and where the help is) or an input that cannot be read (one
 * line); with `--json` an error is a JSON document on stdout too.
 *
 * This file is the process: it hands the command line, the streams and the environment to
 * `runHeed` (cli.ts), which does the rest.
 */
import { runHeed } from './cli.js';

// A reader that stops early (`heed lint big.txt | head -1`) closes the pipe: the rest of the output
// is not wanted, and that is no error of heed's.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

// Set the code and let the event loop drain, so piped stdout is flushed before the process ends.
void runHeed(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then((code) => {
  process.exitCode = code;
});
