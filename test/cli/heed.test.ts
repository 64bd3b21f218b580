/**
 * The `heed` command line as users run it, against robots.txt files served by HTTP servers on
 * 127.0.0.1 that this test starts. Output and exit codes are asserted (0 allowed / clean, 1
 * disallowed / errors, 2 bad usage). Most command lines run in this process through `runHeed`
 * (run-heed.ts); a spawned `node packages/cli/dist/heed.js` is kept where the process is the point:
 * its version, its exit code and piped stdout, the environment it hands on, reading an endless
 * device, and its memory.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heed, root, run, spawnHeed, type Run } from './run-heed.js';

const cases = root + 'test/parser/lint-cases/';

/** Node's --import of a module that prints the process's peak resident memory (KiB) to stderr at exit. */
const REPORT_MAX_RSS = [
  '--import',
  'data:text/javascript,process.on("exit",()=>process.stderr.write("maxRSS="+process.resourceUsage().maxRSS+"\\n"))',
];

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

const ROBOTS = [
  'User-agent: *',
  'Disallow: /private/',
  'Allow: /private/press/',
  'Disallow: scooter',
  '',
  'User-agent: HeedBot',
  'Disallow: /heed-only/',
  '',
].join('\n');

let ok: Site;
let missing: Site;
let down: Site;

beforeAll(async () => {
  [ok, missing, down] = await Promise.all([
    serve(200, ROBOTS),
    serve(404, '<html><body>Not found</body></html>'),
    serve(503, 'Service Unavailable'),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([ok, missing, down].filter(Boolean).map((site) => new Promise((resolve) => site.server.close(resolve))));
});

describe('heed (usage)', () => {
  it('prints help and exits 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: heed <command>');
    expect(result.stdout).toContain('Exit codes: 0 allowed / no errors, 1 disallowed / errors found, 2 bad usage or an unreadable input.');
  });

  it('prints the version', async () => {
    // Spawned: the version is read from the package.json found from the path of the module the process runs.
    const result = await spawnHeed(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^heed \d+\.\d+\.\d+\n$/);
  });

  it.each(
    titled([
      [[], 'no command given'],
      [['frobnicate'], 'unknown command "frobnicate"'],
      [['check', 'https://example.com/'], 'check needs --user-agent'],
      [['explain', 'robots.txt', '--user-agent', 'HeedBot'], 'explain needs a robots.txt (file or URL) and at least one URL'],
      [['lint'], 'lint needs exactly one robots.txt file or URL'],
      [['lint', 'x.txt', '--bogus'], 'unknown option --bogus.'],
      [['check', 'https://example.com/', '-A'], '--user-agent needs a value.'],
      [['lint', 'x.txt', '--json=yes'], '--json takes no value.'],
      [['lint', cases + 'clean.txt', '--ignore', 'no-such-code'], 'unknown diagnostic code "no-such-code"'],
      [['check', 'not-a-url', '-A', 'HeedBot'], '"not-a-url" is not an absolute http(s) URL'],
      [
        ['explain', cases + 'clean.txt', 'not a url', '-A', 'HeedBot'],
        '"not a url" is neither an absolute http(s) URL nor a path starting with "/"',
      ],
      [
        ['explain', cases + 'clean.txt', '/ok', 'example.com/page', '-A', 'HeedBot'],
        '"example.com/page" is neither an absolute http(s) URL',
      ],
      [
        ['check', 'https://example.com/', '-A', 'HeedBot', '--timeout', '3000000'],
        '--timeout 3000000: expected a number of seconds from 0.001 to 2,147,483.647',
      ],
      [
        ['lint', cases + 'clean.txt', '--timeout', 'soon'],
        '--timeout soon: expected a number of seconds from 0.001 to 2,147,483.647 (the longest a Node.js timer waits, about 24.8 days), got "soon"',
      ],
      [['lint', cases + 'clean.txt', '--timeout=-5'], '--timeout -5: expected a number of seconds from 0.001'],
      [
        ['check', 'https://example.com/', '-A', 'Bot/1.0\r\nX-Evil: 1'],
        '--user-agent: contains a line break or NUL, which cannot be sent in an HTTP header',
      ],
      [['explain', cases + 'clean.txt', '/x', '-A', 'Bot/1.0\nX: y'], '--user-agent: contains a line break'],
      [['lint', 'https://example.com/', '-A', 'Bot\r\n'], '--user-agent: contains a line break'],
      [
        ['check', 'https://example.com/', '-A', `Big/1.0 ${'x'.repeat(20_000)}`],
        '--user-agent: is 20,008 bytes long, over the 512-byte limit',
      ],
      [
        ['check', 'https://example.com/', '-A', 'Mozilla/5.0 (compatible; MyBot/1.0)'],
        '--user-agent: "Mozilla/5.0 (compatible; MyBot/1.0)" starts with the browser token "Mozilla"',
      ],
      [['check', 'https://example.com/', '-A', 'Mozilla/5.0 (compatible; MyBot/1.0)'], "Name your bot's token: --product-token MyBot"],
      [
        ['check', 'https://example.com/', '-A', 'HeedBot', '--product-token', 'Heed Bot'],
        '--product-token: expected your bot\'s product token: letters, "-" and "_" only',
      ],
      [
        ['check', 'https://example.com/', '-A', 'HeedBot', '--product-token', 'HeedBot,'],
        "--product-token: item 1: expected your bot's product token",
      ],
      [
        ['check', 'https://example.com/', '-A', 'HeedBot', '--product-token', 'HeedBot,OtherBot'],
        '--product-token: "OtherBot" does not appear in userAgent "HeedBot"',
      ],
    ]),
  )('heed %s → exit 2 with a usage message', async (_title, args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    // Two lines: the problem, and the help of the command it is about (git's and eslint's manner).
    const [problem, see, ...rest] = result.stderr.split('\n');
    expect(problem).toMatch(/^heed: /);
    const command = ['check', 'explain', 'lint'].find((name) => args.includes(name));
    expect(see).toBe(`see heed${command === undefined || args[0] !== command ? '' : ` ${command}`} --help`);
    expect(rest).toEqual(['']);
    // Never node:util's wording ("Option '-A, --user-agent <value>' argument missing").
    expect(result.stderr).not.toMatch(/Option '|argument missing|To specify a positional/);
  });

  it('--json makes a usage error a JSON document on stdout', async () => {
    const result = await run(['check', 'https://example.com/', '--json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      error: {
        type: 'usage',
        message: 'check needs --user-agent: the user-agent your crawler sends (its product token is matched).',
        help: 'heed check --help',
      },
    });
  });

  it('--json makes an unreadable input a JSON document on stdout', async () => {
    const result = await run(['lint', 'no-such-file.txt', '--json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      error: { type: 'input', message: 'cannot read the robots.txt file "no-such-file.txt": no such file.' },
    });
  });

  it('heed lint --help is the help of lint, with every diagnostic code and its summary', async () => {
    const result = await run(['lint', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: heed lint <robots.txt file\|url>/);
    expect(result.stdout).toContain('--ignore <codes>');
    expect(result.stdout).not.toContain('--purpose');
    const { DIAGNOSTIC_CODES } = await import('@heed/parser');
    for (const [code, { summary }] of Object.entries(DIAGNOSTIC_CODES))
      expect(result.stdout).toMatch(new RegExp(`\\n  ${code} +\\w+ +${escape(summary)}\\n`));
  });

  it.each([['check'], ['explain']])('heed %s --help is the help of that command', async (command) => {
    const result = await run([command, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: heed ${command} `));
    expect(result.stdout).toContain('--purpose <p>');
    expect(result.stdout).not.toContain('--ignore');
  });
});

/**
 * Table rows with the command line first, shown short for the test's title: paths from the
 * repository root, and a long argument (a 20,000-byte user-agent) by its start and its length.
 */
function titled<Rest extends unknown[]>(rows: [string[], ...Rest][]): [string, string[], ...Rest][] {
  const shown = (arg: string) => {
    const text = arg.startsWith(root) ? arg.slice(root.length) : arg;
    return text.length > 40 ? `${text.slice(0, 20)}… (${text.length.toLocaleString('en-US')} characters)` : text;
  };
  return rows.map(([args, ...rest]) => [JSON.stringify(args.map(shown)), args, ...rest]);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('heed (inputs it cannot read)', () => {
  it.each(
    titled([
      [['lint', 'no-such-file.txt'], 'heed: cannot read the robots.txt file "no-such-file.txt": no such file.\n'],
      [['lint', cases], `heed: cannot read the robots.txt file "${cases}": it is a directory.\n`],
      [['explain', 'no-such-file.txt', '/x', '-A', 'HeedBot'], 'heed: cannot read the robots.txt file "no-such-file.txt": no such file.\n'],
      [
        ['lint', '--summary', 'no-such-dir'],
        'heed: cannot read "no-such-dir" for lint --summary (a directory of robots.txt files, or one file): no such file.\n',
      ],
    ]),
  )('heed %s → exit 2 with one line, no usage text', async (_title, args, line) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(line);
  });

  it("a site that cannot be reached is the site's answer (exit 1), not a usage error", async () => {
    const spare = await serve(200, '');
    await new Promise((resolve) => spare.server.close(resolve));
    const refused = await run(['lint', spare.origin, '--timeout', '2']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('');
  });
});

describe('heed (the process)', () => {
  it('writes all of a long report through a pipe before it exits, with its exit code, as runHeed writes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heed-cli-pipe-'));
    try {
      const file = join(dir, 'robots.txt');
      // 1,000 errors: a report of about 260 KB, several times what a pipe holds at once (64 KiB on Linux).
      writeFileSync(file, `User-agent: *\n${Array.from({ length: 1_000 }, (_, i) => `Disallow: scooter${i}\n`).join('')}`);
      const [spawned, inProcess] = await Promise.all([spawnHeed(['lint', file]), run(['lint', file])]);
      expect(spawned.code).toBe(1);
      expect(spawned.stdout.length).toBeGreaterThan(64 * 1024);
      expect(spawned.stdout.endsWith(`${file}: 1000 errors, 0 warnings, 0 info.\n`)).toBe(true);
      // A pipe is not a terminal: no colour.
      expect(spawned.stdout).not.toContain('\x1b[');
      expect(spawned).toEqual(inProcess);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends quietly when its reader stops early (heed lint … | head -1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heed-cli-epipe-'));
    try {
      const file = join(dir, 'robots.txt');
      writeFileSync(file, `User-agent: *\n${Array.from({ length: 1_000 }, (_, i) => `Disallow: scooter${i}\n`).join('')}`);
      const child = spawn(process.execPath, [heed, 'lint', file], { cwd: root });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      // The first chunk read, the pipe closes, as `head -1` closes it.
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).not.toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 on bad usage, the problem on stderr', async () => {
    const result = await spawnHeed(['lint', 'x.txt', '--bogus']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'heed: unknown option --bogus.\nsee heed lint --help\n' });
  });

  it('hands its environment on: FORCE_COLOR colours a pipe', async () => {
    const result = await spawnHeed(['lint', cases + 'reversed-syntax.txt'], { FORCE_COLOR: '1' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('\x1b[31merror\x1b[39m');
  });
});

describe('heed reads at most 500 KiB of any file or device', () => {
  // Spawned: a read of the whole device would never end, and a process can be killed (its code is
  // then null); a call in this process could not.
  it('lint /dev/zero ends at once, with the cut noted', async () => {
    const started = Date.now();
    const result = await spawnHeed(['lint', '/dev/zero', '--json'], {}, [], 30_000);
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as { diagnostics: { code: string; line: number; message: string }[] };
    expect(json.diagnostics.map((d) => d.code)).toEqual(['binary-content', 'content-past-limit']);
    expect(json.diagnostics[1]?.message).toMatch(/^The file is larger than 512,000 bytes; crawlers read only the first 500 KiB/);
    // Bounded reads end at once; a read of the whole device would never end. The run takes about
    // 0.5 s on an idle machine: 15 s is 30 times that, room enough for a busy one.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  // Spawned: a process's peak memory is its own, apart from the test runner's.
  it('lint of a 1 GB file keeps memory to the 500 KiB it reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heed-cli-big-'));
    try {
      const file = join(dir, 'robots.txt');
      writeFileSync(file, 'User-agent: *\nDisallow: /private/\n');
      truncateSync(file, 2 ** 30); // sparse: 1 GiB of (mostly) NUL bytes, no disk used
      const [big, baseline] = await Promise.all([
        spawnHeed(['lint', file], {}, REPORT_MAX_RSS, 30_000),
        spawnHeed(['--version'], {}, REPORT_MAX_RSS),
      ]);
      expect(big.code).toBe(1);
      expect(big.stdout).toContain('The file is 1,073,741,824 bytes; crawlers read only the first 500 KiB (512,000 bytes)');
      const peak = (r: Run) => Number(/maxRSS=(\d+)/.exec(r.stderr)?.[1]) * 1024;
      // A bound far above the 500 KiB read and far below the gigabytes of a whole-file read.
      expect(peak(big) - peak(baseline)).toBeLessThan(64 * 1024 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a file over 500 KiB: the line the limit cuts is reported as the cut, not as the author's mistake; verdicts read what Google reads", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heed-cli-cut-'));
    try {
      // Rules up to byte 511,993, then a line the 512,000-byte limit cuts after "Disallo".
      let body = 'User-agent: *\n';
      for (let i = 0; body.length < 500_000; i++) body += `Disallow: /archive/${String(i).padStart(6, '0')}/\n`;
      body += `#${'-'.repeat(511_993 - body.length - 2)}\n`;
      expect(body.length).toBe(511_993);
      body += 'Disallow: /secret/\nDisallow: /more/\n';
      const file = join(dir, 'robots.txt');
      writeFileSync(file, body);
      const fragmentLine = body.slice(0, 512_000).split('\n').length;

      const result = await run(['lint', file, '--json']);
      expect(result.code).toBe(1);
      const json = JSON.parse(result.stdout) as { diagnostics: { code: string; line: number; message: string; text: string }[] };
      const onFragment = json.diagnostics.filter((d) => d.line === fragmentLine);
      expect(onFragment.map((d) => d.code)).toEqual(['content-past-limit']);
      expect(onFragment[0]?.text).toBe('Disallo');
      expect(onFragment[0]?.message).toContain(
        `The file is ${body.length.toLocaleString('en-US')} bytes; crawlers read only the first 500 KiB (512,000 bytes), and the limit falls inside line ${fragmentLine}: crawlers read only its start, "Disallo", and nothing after it.`,
      );
      expect(json.diagnostics.filter((d) => d.code === 'invalid-line' || d.code === 'unknown-directive')).toEqual([]);

      // Verdicts: the rule past the limit does not count, as for Google; explain says the file was cut.
      const explained = await run(['explain', file, '/secret/x', '/archive/000001/x', '-A', 'HeedBot']);
      expect(explained.code).toBe(1);
      expect(explained.stdout).toContain(
        `note The robots.txt is ${body.length.toLocaleString('en-US')} bytes; crawlers read only its first 512,000 bytes, and so do these verdicts.`,
      );
      expect(explained.stdout).toContain('ALLOWED    /secret/x');
      expect(explained.stdout).toContain('DISALLOWED /archive/000001/x');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
    const json = JSON.parse(result.stdout) as {
      source: string;
      httpStatus: number;
      diagnostics: { code: string; line: number; column: number; text: string }[];
      counts: Record<string, number>;
    };
    expect(json.source).toBe(`${ok.origin}/robots.txt`);
    expect(json.httpStatus).toBe(200);
    expect(json.diagnostics).toEqual([
      expect.objectContaining({ code: 'reversed-syntax', line: 4, column: 11, severity: 'error', text: 'Disallow: scooter' }),
    ]);
    expect(json.counts).toEqual({ error: 1, warning: 0, info: 0 });
  });

  it('says a served robots.txt was cut at 500 KiB, on the line the limit falls in', async () => {
    let body = 'User-agent: *\n';
    for (let i = 0; body.length < 600_000; i++) body += `Disallow: /archive/${i}/\n`;
    const big = await serve(200, body);
    try {
      const result = await run(['lint', `${big.origin}/robots.txt`, '--json']);
      const json = JSON.parse(result.stdout) as { diagnostics: { code: string; line: number; message: string; text: string }[] };
      const cut = json.diagnostics.filter((d) => d.code === 'content-past-limit');
      expect(cut).toHaveLength(1);
      const read = body.slice(0, 512_000).split('\n');
      expect(cut[0]?.line).toBe(read.length);
      expect(cut[0]?.message).toContain(
        `The body is larger than 512,000 bytes; crawlers read only the first 500 KiB (512,000 bytes), and the limit falls inside line ${read.length}: crawlers read only its start, "${read.at(-1)}", and nothing after it.`,
      );
      // Nothing else is said about the fragment.
      expect(json.diagnostics.filter((d) => d.line === read.length)).toEqual(cut);
      expect(result.code).toBe(1);
    } finally {
      await new Promise((resolve) => big.server.close(resolve));
    }
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
    // A terminal on stdout turns colour on, unless NO_COLOR is set.
    expect((await run(['lint', file], {}, true)).stdout).toContain('\x1b[31merror\x1b[39m');
    expect((await run(['lint', file], { NO_COLOR: '1' }, true)).stdout).not.toContain('\x1b[');
  });

  it("prints no byte of the file a terminal would obey: the file's escapes, BEL, C1 and bidi controls are shown escaped", async () => {
    // A window title (OSC … BEL), a colour, a C1 CSI that clears the screen, a right-to-left override:
    // each in a line that is quoted and whose text the diagnostic's message repeats.
    const dir = mkdtempSync(join(tmpdir(), 'heed-escapes-'));
    const file = join(dir, 'robots.txt');
    writeFileSync(file, 'User-agent: *\n\x1b]0;pwned\x07Foo: bar\nDisallow \x1b[31mred\x1b[2J\nUser-agent: \u009b2J\u202e\n');
    try {
      for (const env of [{}, { FORCE_COLOR: '1' }]) {
        const { stdout } = await run(['lint', file], env);
        // Heed's own colours (with FORCE_COLOR) are the only escapes left.
        expect(stdout.replace(/\x1b\[\d+m/g, '')).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
        expect(stdout).toContain('\\x1b]0;pwned\\x07Foo: bar');
        expect(stdout).toContain('\\x1b[31mred\\x1b[2J');
        expect(stdout).toContain('User-agent: \\x9b2J\\u202e');
      }
      // The caret stays under the column it names, counting the escapes before it.
      expect((await run(['lint', file])).stdout).toContain('    3 | Disallow \\x1b[31mred\\x1b[2J\n      |         ^\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('summarises a directory as a table of codes and file counts, exiting 1 when a file has errors', async () => {
    const result = await run(['lint', '--summary', cases]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('| Diagnostic | Severity | Files | % of files | What it means |');
    expect(result.stdout).toMatch(/\| `shadowed-rule` \| warning \| 1 \| \d+\.\d \| a rule that never decides/);
    const json = JSON.parse((await run(['lint', '--summary', cases, '--json'])).stdout) as {
      files: number;
      codes: { code: string; files: number }[];
    };
    expect(json.codes.find((row) => row.code === 'missing-colon')?.files).toBe(1);
    expect(json.files).toBeGreaterThan(25);
  });

  it('--summary exits 0 over files without errors, and summarises a single file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heed-cli-summary-'));
    try {
      mkdirSync(join(dir, 'clean'));
      copyFileSync(cases + 'clean.txt', join(dir, 'clean', 'a.txt'));
      copyFileSync(cases + 'crawl-delay.txt', join(dir, 'clean', 'b.txt')); // warnings only
      const clean = await run(['lint', '--summary', join(dir, 'clean')]);
      expect(clean.code).toBe(0);
      expect(clean.stdout).toContain('2 files linted in');
      const one = await run(['lint', '--summary', cases + 'reversed-syntax.txt', '--json']);
      expect(one.code).toBe(1);
      expect(one.stderr).toBe('');
      const json = JSON.parse(one.stdout) as { files: number; filesWithErrors: number; codes: { code: string; files: number }[] };
      expect(json).toMatchObject({ files: 1, filesWithErrors: 1 });
      expect(json.codes.find((row) => row.code === 'reversed-syntax')?.files).toBe(1);
      const single = await run(['lint', '--summary', cases + 'clean.txt']);
      expect(single.code).toBe(0);
      expect(single.stdout).toContain('1 file linted in');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
    const json = JSON.parse(result.stdout) as {
      userAgent: string;
      productToken: string;
      httpStatus: number;
      results: Record<string, unknown>[];
    };
    expect(json.userAgent).toBe('HeedBot');
    expect(json.productToken).toBe('HeedBot');
    expect(json.httpStatus).toBe(200);
    expect(json.results).toEqual([
      expect.objectContaining({
        url: '/heed-only/a',
        allowed: false,
        reason: 'rules',
        ruleReason: 'rule',
        line: 7,
        rule: { directive: 'disallow', pattern: '/heed-only/', line: 7 },
        matchedBy: 'product-token',
      }),
      expect.objectContaining({
        url: '/private/x',
        allowed: true,
        ruleReason: 'no-matching-rule',
        groups: [{ line: 6, agents: ['HeedBot'] }],
      }),
    ]);
  });

  it('says when the file is binary (no rules in it), as lint does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'heed-cli-binary-'));
    try {
      const file = join(dir, 'robots.txt');
      writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));
      const result = await run(['explain', file, '/private/x', '-A', 'HeedBot']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('note The body is an image, not UTF-8 text: crawlers find no rules in it.');
      expect(result.stdout).toContain('ALLOWED    /private/x');
      const json = JSON.parse((await run(['explain', file, '/x', '-A', 'HeedBot', '--json'])).stdout) as { notes: string[] };
      expect(json.notes).toEqual([expect.stringContaining('The body is an image')]);
      expect((await run(['lint', file])).stdout).toContain('error binary-content');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('matches the --product-token of a browser-style user-agent', async () => {
    const result = await run([
      'explain',
      cases + 'clean.txt',
      '/anything',
      '-A',
      'Mozilla/5.0 (compatible; BadBot/1.0)',
      '--product-token',
      'BadBot',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Line 6 decided, in the group naming BadBot (line 5):');
  });

  it('matches several --product-token values as one crawler: the groups of each, * only when none is named', async () => {
    const agent = 'HeedBot-News/1.0 (+https://heed.example; HeedBot)';
    const both = await run(['explain', ok.origin, '/heed-only/a', '/private/x', '-A', agent, '--product-token', 'HeedBot-News,HeedBot']);
    expect(both.code).toBe(1);
    expect(both.stdout).toContain('is matched by the product tokens HeedBot-News, HeedBot');
    expect(both.stdout).toContain(
      'DISALLOWED /heed-only/a  for HeedBot-News, HeedBot\n  Line 7 decided, in the group naming HeedBot-News, HeedBot (line 6):',
    );
    expect(both.stdout).toContain('ALLOWED    /private/x  for HeedBot-News, HeedBot');
    const other = 'HeedBot-News/1.0 (NoSuchBot)';
    const json = JSON.parse(
      (
        await run([
          'explain',
          ok.origin,
          '/private/x',
          '-A',
          other,
          '--product-token',
          'HeedBot-News',
          '--product-token',
          'NoSuchBot',
          '--json',
        ])
      ).stdout,
    ) as { userAgent: string; productToken: unknown; results: Record<string, unknown>[] };
    expect(json).toMatchObject({ userAgent: other, productToken: ['HeedBot-News', 'NoSuchBot'] });
    expect(json.results[0]).toMatchObject({ allowed: false, matchedBy: 'wildcard', productToken: ['HeedBot-News', 'NoSuchBot'] });
  });

  it('refuses the URL of another .txt file (exit 2, nothing fetched): crawlers read only /robots.txt', async () => {
    ok.requests.length = 0;
    for (const args of [
      ['explain', `${ok.origin}/staging/robots.txt`, '/x', '-A', 'HeedBot'],
      ['lint', `${ok.origin}/other.txt`],
    ]) {
      const result = await run(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`is not a site's /robots.txt; heed fetches ${ok.origin}/robots.txt, as crawlers do.`);
    }
    expect(ok.requests).toEqual([]);
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
  it('refuses a --timeout past a Node.js timer before fetching anything', async () => {
    ok.requests.length = 0;
    const result = await run(['check', `${ok.origin}/public`, '-A', 'HeedBot', '--timeout', '3000000']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(ok.requests).toEqual([]);
    // The longest timer is accepted, and the site's answer is what decides.
    const longest = await run(['check', `${ok.origin}/public`, '-A', 'HeedBot', '--timeout', '2147483.647']);
    expect(longest.code).toBe(0);
    expect(longest.stdout).toContain(`ALLOWED    ${ok.origin}/public`);
  });

  it('fetches robots.txt once per origin with the given user-agent and prints each verdict', async () => {
    ok.requests.length = 0;
    const result = await run([
      'check',
      `${ok.origin}/private/x`,
      `${ok.origin}/heed-only/x`,
      '--user-agent',
      'HeedBot/1.0 (+https://heed.example/bot)',
    ]);
    expect(result.code).toBe(1); // one of them is disallowed
    expect(ok.requests.map((request) => request.url)).toEqual(['/robots.txt']);
    expect(ok.requests[0]?.headers['user-agent']).toBe('HeedBot/1.0 (+https://heed.example/bot)');
    expect(result.stdout).toContain(`ALLOWED    ${ok.origin}/private/x  for HeedBot`);
    expect(result.stdout).toContain(`DISALLOWED ${ok.origin}/heed-only/x  for HeedBot`);
    // One header for the origin, its URLs under it.
    expect(result.stdout.split(`robots.txt: ${ok.origin}/robots.txt (HTTP 200)`)).toHaveLength(2);
  });

  it('groups the URLs of several origins under one robots.txt header each, in the order first given', async () => {
    const result = await run(['check', `${ok.origin}/a`, `${missing.origin}/b`, `${ok.origin}/c`, '-A', 'HeedBot/1.0']);
    const headers = result.stdout.split('\n').filter((line) => line.startsWith('robots.txt: '));
    expect(headers).toEqual([`robots.txt: ${ok.origin}/robots.txt (HTTP 200)`, `robots.txt: ${missing.origin}/robots.txt (HTTP 404)`]);
    const order = [`${ok.origin}/a `, `${ok.origin}/c `, `${missing.origin}/b `].map((url) => result.stdout.indexOf(url));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
  });

  it('shows the deciding line and group, and exits 1 when disallowed', async () => {
    const result = await run(['check', `${ok.origin}/heed-only/page`, '-A', 'HeedBot/1.0']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`DISALLOWED ${ok.origin}/heed-only/page  for HeedBot`);
    expect(result.stdout).toContain('Line 7 decided, in the group naming HeedBot (line 6):');
    expect(result.stdout).toContain('    6 | User-agent: HeedBot\n    7 | Disallow: /heed-only/\n      |           ^\n');
  });

  it('checks with several --product-token values: one fetch, the groups of each token', async () => {
    ok.requests.length = 0;
    const agent = 'HeedBot-News/1.0 (+https://heed.example; HeedBot)';
    const result = await run([
      'check',
      `${ok.origin}/heed-only/x`,
      `${ok.origin}/private/x`,
      '-A',
      agent,
      '--product-token',
      'HeedBot-News,HeedBot',
      '--json',
    ]);
    expect(result.code).toBe(1);
    expect(ok.requests.map((request) => request.url)).toEqual(['/robots.txt']);
    const json = JSON.parse(result.stdout) as { userAgent: string; productToken: unknown; results: Record<string, unknown>[] };
    expect(json).toMatchObject({ userAgent: agent, productToken: ['HeedBot-News', 'HeedBot'] });
    expect(json.results.map((r) => [r['allowed'], r['matchedBy']])).toEqual([
      [false, 'product-token'],
      [true, 'product-token'],
    ]);
  });

  it('exits 0 when allowed', async () => {
    const result = await run(['check', `${ok.origin}/public`, '-A', 'OtherBot']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('so it is allowed (no group names OtherBot)');
  });

  it('explains a 404 (allow all), a 503 (disallow all) and an unreachable origin', async () => {
    const gone = await run(['check', `${missing.origin}/page`, '-A', 'HeedBot', '--json']);
    expect(gone.code).toBe(0);
    expect(JSON.parse(gone.stdout).results[0]).toEqual(
      expect.objectContaining({
        allowed: true,
        reason: 'unavailable',
        record: expect.objectContaining({ status: 'unavailable', httpStatus: 404 }),
      }),
    );
    const broken = await run(['check', `${down.origin}/page`, '-A', 'HeedBot']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`DISALLOWED ${down.origin}/page  for HeedBot`);
    expect(broken.stdout).toContain(
      'robots.txt answered HTTP 503: it is unreachable, so crawlers must fetch nothing until it answers again',
    );
    // A port nothing listens on: closed right after it was found free.
    const spare = await serve(200, '');
    await new Promise((resolve) => spare.server.close(resolve));
    const refused = await run(['check', `${spare.origin}/page`, '-A', 'HeedBot']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('robots.txt could not be fetched (refused');
  });
});
