#!/usr/bin/env node
/**
 * `node examples/demo-crawl/dist/main.js [-- <start URL>...] [--max <pages>]`
 * Without a URL it crawls the bundled demo site; with one it crawls that (at most --max pages, default 100).
 */
import { log, LogLevel } from '@crawlee/core';
import { runDemoCrawl } from './demo-crawl.js';

const USAGE = 'usage: node examples/demo-crawl/dist/main.js [-- https://example.org ...] [--max 100]';

function parseArgs(args: readonly string[]): { startUrls?: string[]; maxRequestsPerCrawl?: number } {
  const startUrls: string[] = [];
  let maxRequestsPerCrawl: number | undefined;
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
    let url: URL | undefined;
    try {
      url = new URL(arg);
    } catch {
      url = undefined;
    }
    if (url === undefined || !/^https?:$/.test(url.protocol)) fail(`"${arg}" is not an http(s) URL`);
    startUrls.push(arg);
  }
  return { ...(startUrls.length > 0 ? { startUrls } : {}), ...(maxRequestsPerCrawl === undefined ? {} : { maxRequestsPerCrawl }) };
}

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

// Heed's progress lines and summary say what happened; Crawlee's own info lines would bury them.
log.setLevel(LogLevel.WARNING);
const summary = await runDemoCrawl(parseArgs(process.argv.slice(2)));
process.exitCode = summary.violations.length > 0 ? 1 : 0;
