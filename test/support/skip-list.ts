/**
 * The list of what a test run skipped and why, printed once the run is over: the `SKIPPING` lines
 * `requirements.ts` prints scroll away among the crawl logs of a whole run. A global setup: it
 * names a file in `HEED_SKIPS_FILE` (the test processes inherit it), `requirements.ts` appends a
 * line per skip, and the teardown prints them, each once.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'heed-skips-'));
  const file = join(dir, 'skips.txt');
  process.env['HEED_SKIPS_FILE'] = file;
  return () => {
    let lines: string[] = [];
    try {
      lines = [
        ...new Set(
          readFileSync(file, 'utf8')
            .split('\n')
            .filter((line) => line !== ''),
        ),
      ];
    } catch {
      // No file: nothing was skipped.
    }
    rmSync(dir, { recursive: true, force: true });
    if (lines.length > 0) console.log(`\nSkipped (${lines.length}):\n${lines.map((line) => `  ${line}`).join('\n')}`);
  };
}
