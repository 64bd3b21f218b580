/**
 * The `heed` command line as users run it: a spawned `node packages/manager/dist/cli/heed.js`,
 * against robots.txt files served by HTTP servers on 127.0.0.1 that this test starts. Output and
 * exit codes are asserted (0 allowed / clean, 1 disallowed / errors, 2 bad usage).
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const heed = root + 'packages/manager/dist/cli/heed.js';
const cases = root + 'test/parser/lint-cases/';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs heed asynchronously (the servers live in this process and must keep answering). */
function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [heed, ...args], { cwd: root, env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Site {
  server: Server;
  origin: string;
  requests: { url: string; headers: IncomingHttpHeaders }[];
}

async function serve(status: number, body: string): Promise<Site> {
  const requests: Site['requests'] = [];
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    if (request.url === '/robots.txt') {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(body);
    } else {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const ROBOTS = ['User-agent: *', 'Disallow: /private/', 'Allow: /private/press/', 'Disallow: scooter', '', 'User-agent: HeedBot', 'Disallow: /heed-only/', ''].join('\n');

let ok: Site;
let missing: Site;
let down: Site;

beforeAll(async () => {
  // The CLI is tested as shipped: compiled JavaScript (built by test/support/global-setup.ts).
  [ok, missing, down] = await Promise.all([serve(200, ROBOTS), serve(404, '<html><body>Not found</body></html>'), serve(503, 'Service Unavailable')]);
}, 120_000);

afterAll(async () => {
  await Promise.all([ok, missing, down].filter(Boolean).map((site) => new Promise((resolve) => site.server.close(resolve))));
});

describe('heed (usage)', () => {
  it('prints help and exits 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: heed <command>');
    expect(result.stdout).toContain('Exit codes: 0 allowed / no errors, 1 disallowed / errors found, 2 bad usage.');
  });

  it('prints the version', async () => {
    const result = await run(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^heed \d+\.\d+\.\d+\n$/);
  });

  it.each([
    [[], 'no command given'],
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['check', 'https://example.com/'], 'check needs --user-agent'],
    [['explain', 'robots.txt', '--user-agent', 'HeedBot'], 'explain needs a robots.txt (file or URL) and at least one URL'],
    [['lint'], 'lint needs exactly one robots.txt file or URL'],
    [['lint', 'x.txt', '--bogus'], "Unknown option '--bogus'"],
    [['lint', 'no-such-file.txt'], 'cannot read the robots.txt file "no-such-file.txt": no such file'],
    [['lint', cases + 'clean.txt', '--ignore', 'no-such-code'], 'unknown diagnostic code "no-such-code"'],
    [['check', 'not-a-url', '-A', 'HeedBot'], '"not-a-url" is not an absolute http(s) URL'],
  ])('heed %j → exit 2 with a usage message', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: heed <command>');
  });
});

describe('heed lint', () => {
  it('quotes the offending line with a caret and exits 1 on errors', async () => {
    const file = cases + 'reversed-syntax.txt';
    const result = await run(['lint', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${file}:2:11 error reversed-syntax`);
    expect(result.stdout).toContain('write `User-agent: scooter` followed by `Disallow: /`');
    expect(result.stdout).toContain('    2 | Disallow: scooter\n      |           ^\n');
    expect(result.stdout).toContain(`${file}: 2 errors, 0 warnings, 0 info.`);
  });

  it('exits 0 for a clean file, and for one with only warnings', async () => {
    const clean = await run(['lint', cases + 'clean.txt']);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('no problems found');
    const warnings = await run(['lint', cases + 'crawl-delay.txt']);
    expect(warnings.code).toBe(0);
    expect(warnings.stdout).toContain('0 errors, 2 warnings');
  });

  it('leaves out --ignore codes', async () => {
    const result = await run(['lint', cases + 'reversed-syntax.txt', '--ignore', 'reversed-syntax']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('no problems found');
  });

  it('fetches a URL and reports as JSON', async () => {
    const result = await run(['lint', `${ok.origin}/robots.txt`, '--json']);
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as { source: string; httpStatus: number; diagnostics: { code: string; line: number; column: number; text: string }[]; counts: Record<string, number> };
    expect(json.source).toBe(`${ok.origin}/robots.txt`);
    expect(json.httpStatus).toBe(200);
    expect(json.diagnostics).toEqual([expect.objectContaining({ code: 'reversed-syntax', line: 4, column: 11, severity: 'error', text: 'Disallow: scooter' })]);
    expect(json.counts).toEqual({ error: 1, warning: 0, info: 0 });
  });

  it('says what a 404 or a 503 means instead of linting the error page', async () => {
    const gone = await run(['lint', missing.origin]);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain('robots.txt answered HTTP 404: it is unavailable, so crawlers may fetch everything');
    const broken = await run(['lint', down.origin]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('robots.txt answered HTTP 503: it is unreachable, so crawlers must fetch nothing');
  });

  it('colours only when asked or on a terminal, never with NO_COLOR', async () => {
    const file = cases + 'reversed-syntax.txt';
    expect((await run(['lint', file])).stdout).not.toContain('\x1b[');
    expect((await run(['lint', file], { FORCE_COLOR: '1' })).stdout).toContain('\x1b[31merror\x1b[39m');
    expect((await run(['lint', file], { FORCE_COLOR: '1', NO_COLOR: '1' })).stdout).not.toContain('\x1b[');
    expect((await run(['lint', file, '--color', '--json'])).stdout).not.toContain('\x1b[');
  });

  it('summarises a directory as a table of codes and file counts', async () => {
    const result = await run(['lint', '--summary', cases]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('| Diagnostic | Severity | Files | % of files | What it means |');
    expect(result.stdout).toMatch(/\| `shadowed-rule` \| warning \| 1 \| \d+\.\d \| a rule that never decides/);
    const json = JSON.parse((await run(['lint', '--summary', cases, '--json'])).stdout) as { files: number; codes: { code: string; files: number }[] };
    expect(json.codes.find((row) => row.code === 'missing-colon')?.files).toBe(1);
    expect(json.files).toBeGreaterThan(25);
  });
});

describe('heed explain', () => {
  it('judges paths against a served robots.txt, with the deciding line and group', async () => {
    // Any page URL of the site stands for its /robots.txt.
    const result = await run(['explain', `${ok.origin}/some/page.html`, '/private/x', '/private/press/y', '--user-agent', 'OtherBot/2.0']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`robots.txt: ${ok.origin}/robots.txt (HTTP 200)`);
    expect(result.stdout).toContain('DISALLOWED /private/x  for OtherBot');
    expect(result.stdout).toContain('Line 2 decided, in the `User-agent: *` group of line 1 (no group names OtherBot):');
    expect(result.stdout).toContain('    1 | User-agent: *\n    2 | Disallow: /private/\n      |           ^\n');
    expect(result.stdout).toContain('ALLOWED    /private/press/y  for OtherBot');
  });

  it('uses the group naming the product token, and exits 0 when everything is allowed', async () => {
    const result = await run(['explain', cases + 'clean.txt', 'https://example.com/anything', '-A', 'BadBot/1.0 (+https://bad.example)']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Line 6 decided, in the group naming BadBot (line 5):');
    const allowed = await run(['explain', cases + 'clean.txt', '/public', '-A', 'HeedBot']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('No rule of the `User-agent: *` group of line 1 matches this URL, so it is allowed');
  });

  it('reports as JSON', async () => {
    const result = await run(['explain', `${ok.origin}/robots.txt`, '/heed-only/a', '/private/x', '--user-agent', 'HeedBot', '--json']);
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as { userAgent: string; httpStatus: number; results: Record<string, unknown>[] };
    expect(json.userAgent).toBe('HeedBot');
    expect(json.httpStatus).toBe(200);
    expect(json.results).toEqual([
      expect.objectContaining({ url: '/heed-only/a', allowed: false, reason: 'rules', ruleReason: 'rule', line: 7, rule: { directive: 'disallow', pattern: '/heed-only/', line: 7 }, matchedBy: 'product-token' }),
      expect.objectContaining({ url: '/private/x', allowed: true, ruleReason: 'no-matching-rule', groups: [{ line: 6, agents: ['HeedBot'] }] }),
    ]);
  });

  it('applies the status policy to a robots.txt URL that does not answer 200', async () => {
    const gone = await run(['explain', missing.origin, '/x', '-A', 'HeedBot']);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain('ALLOWED    /x  for HeedBot\n  robots.txt answered HTTP 404');
    const broken = await run(['explain', down.origin, '/x', '-A', 'HeedBot', '--json']);
    expect(broken.code).toBe(1);
    expect(JSON.parse(broken.stdout).results[0]).toEqual(expect.objectContaining({ allowed: false, reason: 'unreachable' }));
  });
});

describe('heed check', () => {
  it('fetches robots.txt once per origin with the given user-agent and prints each verdict', async () => {
    ok.requests.length = 0;
    const result = await run(['check', `${ok.origin}/private/x`, `${ok.origin}/heed-only/x`, '--user-agent', 'HeedBot/1.0 (+https://heed.example/bot)']);
    expect(result.code).toBe(1); // one of them is disallowed
    expect(ok.requests.map((request) => request.url)).toEqual(['/robots.txt']);
    expect(ok.requests[0]?.headers['user-agent']).toBe('HeedBot/1.0 (+https://heed.example/bot)');
    expect(result.stdout).toContain(`robots.txt: ${ok.origin}/robots.txt (HTTP 200)`);
    expect(result.stdout).toContain(`ALLOWED    ${ok.origin}/private/x  for HeedBot`);
    expect(result.stdout).toContain(`DISALLOWED ${ok.origin}/heed-only/x  for HeedBot`);
  });

  it('shows the deciding line and group, and exits 1 when disallowed', async () => {
    const result = await run(['check', `${ok.origin}/heed-only/page`, '-A', 'HeedBot/1.0']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`DISALLOWED ${ok.origin}/heed-only/page  for HeedBot`);
    expect(result.stdout).toContain('Line 7 decided, in the group naming HeedBot (line 6):');
    expect(result.stdout).toContain('    6 | User-agent: HeedBot\n    7 | Disallow: /heed-only/\n      |           ^\n');
  });

  it('exits 0 when allowed', async () => {
    const result = await run(['check', `${ok.origin}/public`, '-A', 'OtherBot']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('so it is allowed (no group names OtherBot)');
  });

  it('explains a 404 (allow all), a 503 (disallow all) and an unreachable origin', async () => {
    const gone = await run(['check', `${missing.origin}/page`, '-A', 'HeedBot', '--json']);
    expect(gone.code).toBe(0);
    expect(JSON.parse(gone.stdout).results[0]).toEqual(expect.objectContaining({ allowed: true, reason: 'unavailable', record: expect.objectContaining({ status: 'unavailable', httpStatus: 404 }) }));
    const broken = await run(['check', `${down.origin}/page`, '-A', 'HeedBot']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`DISALLOWED ${down.origin}/page  for HeedBot`);
    expect(broken.stdout).toContain('robots.txt answered HTTP 503: it is unreachable, so crawlers must fetch nothing until it answers again');
    // A port nothing listens on: closed right after it was found free.
    const spare = await serve(200, '');
    await new Promise((resolve) => spare.server.close(resolve));
    const refused = await run(['check', `${spare.origin}/page`, '-A', 'HeedBot']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('robots.txt could not be fetched (refused');
  });
});
