/**
 * Builds every package and example once, before any test file runs. Some tests run the compiled
 * JavaScript as a user would (the `heed` CLI, crawler and fleet worker processes, README
 * examples); building here, once, keeps them from building the same `dist` concurrently.
 * `tsc -b` is incremental: on a built tree it checks timestamps and returns in a few seconds; the
 * bundling after it takes a fraction of a second.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  // `npm test` (scripts/test-and-lint.mjs) has just built them, and says so.
  if (process.env['HEED_BUILT'] === '1') return;
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const started = Date.now();
  try {
    execFileSync(
      process.execPath,
      [
        `${root}node_modules/typescript/bin/tsc`,
        '-b',
        'packages/parser',
        'packages/manager',
        'packages/crawlee',
        'packages/cli',
        'examples',
      ],
      {
        cwd: root,
        encoding: 'utf8',
        stdio: 'pipe',
      },
    );
  } catch (error) {
    const output = (error as { stdout?: string }).stdout ?? String(error);
    throw new Error(`the build before the tests failed (tsc -b); fix these errors first:\n${output}`);
  }
  // The packages export one bundled file each (scripts/bundle.mjs), made from what tsc wrote.
  try {
    execFileSync(process.execPath, [`${root}scripts/bundle.mjs`], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`bundling the built packages failed (scripts/bundle.mjs):\n${stderr ?? ''}${stdout ?? String(error)}`);
  }
  const seconds = (Date.now() - started) / 1000;
  if (seconds > 5) console.log(`test setup: built the packages and examples in ${seconds.toFixed(1)} s`);
}
