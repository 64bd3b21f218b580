#!/usr/bin/env node
/** `node examples/demo-crawl/dist/compare-main.js`: Heed vs Crawlee's respectRobotsTxtFile on the demo site, as a Markdown table. */
import { log, LogLevel } from '@crawlee/core';
import { compareWithCrawlee, comparisonTable } from './compare.js';

log.setLevel(LogLevel.OFF);
const rows = await compareWithCrawlee();
for (const line of comparisonTable(rows)) console.log(line);
