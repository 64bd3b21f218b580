#!/usr/bin/env node
/**
 * `node examples/demo-crawl/dist/main.js [-- <start URL>...] [--max <pages>] [--user-agent "<header>"]`
 * Without a URL it crawls the bundled demo site; with one it crawls that (at most --max pages, default 100),
 * as --user-agent (default: the demo bot's, `HeedDemoBot/1.0 (…)`).
 */
import { log, LogLevel } from '@crawlee/core';
import { InvalidOptionsError } from '@heed/manager';
import { runDemoCrawl, type DemoCrawlOptions } from './demo-crawl.js';

const USAGE =
  'usage: node examples/demo-crawl/dist/main.js [-- https://example.org ...] [--max 100] [--user-agent "MyBot/1.0 (+https://example.org/bot)"]';

function parseArgs(args: readonly string[]): DemoCrawlOptions {
  const startUrls: string[] = [];
  let maxRequestsPerCrawl: number | undefined;
  let userAgent: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') continue;
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (arg === '--max') {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 1) fail(`--max needs a whole number of pages, at least 1`);
      maxRequestsPerCrawl = value;
      continue;
    }
    if (arg === '--user-agent') {
      const value = args[++i];
      if (value === undefined || value.trim() === '')
        fail('--user-agent needs the User-Agent header to crawl as, e.g. --user-agent "MyBot/1.0 (+https://example.org/bot)"');
      userAgent = value;
      continue;
    }
    let url: URL | undefined;
    try {
      url = new URL(arg);
    } catch {
      url = undefined;
    }
    if (url === undefined || !/^https?:$/.test(url.protocol)) fail(`"${arg}" is not an http(s) URL`);
    startUrls.push(arg);
  }
  return {
    ...(startUrls.length > 0 ? { startUrls } : {}),
    ...(maxRequestsPerCrawl === undefined ? {} : { maxRequestsPerCrawl }),
    ...(userAgent === undefined ? {} : { userAgent }),
  };
}

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

// Heed's progress lines and summary say what happened; Crawlee's own info lines would bury them.
log.setLevel(LogLevel.WARNING);
try {
  const summary = await runDemoCrawl(parseArgs(process.argv.slice(2)));
  process.exitCode = summary.violations.length > 0 ? 1 : 0;
} catch (error) {
  // A User-Agent no robots.txt group could name (or one that cannot be sent) is the user's to fix.
  if (error instanceof InvalidOptionsError && error.option === 'userAgent') fail(`--user-agent: ${error.message}`);
  throw error;
}
