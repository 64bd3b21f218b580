/**
 * The real robots.txt files the broad-crawl benches serve, one per origin in turn: ../shared's
 * corpus when it is there (4,231 files), else the repository's sample; empty files left out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const shared = fileURLToPath(new URL('../../../shared/corpus/real-robots/', import.meta.url));
const sample = fileURLToPath(new URL('../fixtures/real-robots-sample/', import.meta.url));

/** Whether the files are ../shared's corpus (else the repository's sample). */
export const fromShared = existsSync(shared);

/** The files' bodies, in file-name order. */
export const files = readdirSync(fromShared ? shared : sample)
  .sort()
  .map((name) => readFileSync((fromShared ? shared : sample) + name))
  .filter((body) => body.length > 0);

/** Where the files came from, as a benchmark's figures name it. */
export const filesSource = fromShared ? "../shared's corpus" : 'the repository sample';
