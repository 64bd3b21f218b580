/**
 * The web of a broad-crawl benchmark, in its own process: one forward proxy on 127.0.0.1 that
 * answers for every host `o<i>.example`, so a crawler reaches as many origins as it likes through
 * its proxy. Origin i serves file i (in turn) of the real robots.txt files (real-files.mjs), with its
 * host name appended so each origin's file is its own; any other path is a small HTML page without
 * links. Counts what it served. With `BROAD_FILE_BYTES=<from>-<to>`, only the files of that size
 * band are served.
 *
 * Forked by broad-crawl.bench.mjs: sends `{ type: 'ready', port }`, answers `{ type: 'counts' }` with
 * `{ type: 'counts', robots, pages }`, and exits when its parent disconnects.
 */
import { createServer } from 'node:http';
import { files as allFiles } from '../real-files.mjs';

// BROAD_FILE_BYTES=300-900: only the files of that size band (the median real file's).
const band = /^(\d+)-(\d+)$/.exec(process.env.BROAD_FILE_BYTES ?? '');
const files = band ? allFiles.filter((body) => body.length >= Number(band[1]) && body.length < Number(band[2])) : allFiles;

const PAGE = Buffer.from('<!doctype html><html><head><title>A page</title></head><body><p>One page of a broad crawl.</p></body></html>');
const counts = { robots: 0, pages: 0 };

const server = createServer((req, res) => {
  let url;
  try {
    url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'invalid'}`);
  } catch {
    res.writeHead(400).end();
    return;
  }
  const i = Number(/^o(\d+)\.example$/.exec(url.hostname)?.[1] ?? -1);
  if (i < 0) {
    res.writeHead(404).end();
    return;
  }
  if (url.pathname === '/robots.txt') {
    counts.robots++;
    res
      .writeHead(200, { 'content-type': 'text/plain' })
      .end(Buffer.concat([files[i % files.length], Buffer.from(`\n# ${url.hostname}\n`)]));
    return;
  }
  counts.pages++;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }));
process.on('message', (message) => {
  if (message?.type === 'counts') process.send({ type: 'counts', ...counts });
});
process.on('disconnect', () => process.exit(0));
