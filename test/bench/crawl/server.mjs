/**
 * The benchmark site's server process (forked by site-host.mjs, so the crawler's process measures
 * only the crawler): one node `http` server per origin, each bound to its own loopback address
 * 127.<block>.x.y on one shared port, serving site.mjs's pages and robots.txt, and keeping the
 * request log the benchmark checks.
 *
 * argv[2]: the SiteConfig as JSON. Messages in: `reset` (clear the log, drop hanging robots.txt
 * connections), `log`, `close`. Messages out: `ready` { port }, `reset-done`, `log` { log }.
 */
import http from 'node:http';
import { isDisallowedPath, originAddress, originIndex, pageHtml, pageNumber, robotsBody } from './site.mjs';

const config = JSON.parse(process.argv[2]);
const pages = config.origins * config.pagesPerOrigin;
let port = 0;

function freshLog() {
  return {
    robotsRequests: 0,
    robotsPerOrigin: new Uint16Array(config.origins),
    robotsUserAgents: new Set(),
    pageRequests: 0,
    disallowedRequests: 0,
    disallowedSamples: [],
    otherRequests: 0,
    pageSeen: new Uint8Array(pages),
    firstRequestAt: 0,
  };
}
let log = freshLog();
/** robots.txt requests of `hang` origins, held open until a reset or close. */
const hanging = new Set();

function serveRobots(o, req, res) {
  log.robotsRequests++;
  log.robotsPerOrigin[o]++;
  if (log.robotsUserAgents.size < 5) log.robotsUserAgents.add(String(req.headers['user-agent'] ?? '').split(' ')[0]);
  switch (config.robots) {
    case '503':
      res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      return;
    case 'hang':
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    case 'delay': {
      const timer = setTimeout(
        () => res.writeHead(200, { 'content-type': 'text/plain' }).end(robotsBody(o, config)),
        config.robotsDelayMs ?? 200,
      );
      res.on('close', () => clearTimeout(timer));
      return;
    }
    default:
      res.writeHead(200, { 'content-type': 'text/plain' }).end(robotsBody(o, config));
  }
}

function handle(req, res) {
  if (log.firstRequestAt === 0) log.firstRequestAt = Date.now();
  const o = originIndex(req.socket.localAddress ?? '');
  const path = req.url ?? '/';
  if (o < 0 || o >= config.origins) {
    res.writeHead(421).end();
    return;
  }
  if (path === '/robots.txt') {
    serveRobots(o, req, res);
    return;
  }
  log.pageRequests++;
  if (isDisallowedPath(path)) {
    log.disallowedRequests++;
    if (log.disallowedSamples.length < 10) log.disallowedSamples.push(`${originAddress(config.block, o)}${path}`);
  }
  const k = pageNumber(path);
  if (k < 0 || k >= config.pagesPerOrigin) {
    log.otherRequests++;
    res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
    return;
  }
  log.pageSeen[o * config.pagesPerOrigin + k] = 1;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(config, port, o, k));
}

const servers = [];
async function listenAll() {
  // The first server takes a free port; every other origin listens on the same port of its own address.
  for (let o = 0; o < config.origins; o++) {
    const server = http.createServer(handle);
    server.keepAliveTimeout = 5_000;
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, originAddress(config.block, o), () => resolve());
    });
    port = server.address().port;
    servers.push(server);
  }
}

async function closeAll() {
  for (const res of hanging) res.destroy();
  await Promise.all(
    servers.map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
  servers.length = 0;
}

for (let attempt = 0; ; attempt++) {
  try {
    await listenAll();
    break;
  } catch (error) {
    // The port the first address got may be taken on another address: start over on a new one.
    await closeAll();
    port = 0;
    if (attempt >= 5) throw error;
  }
}

process.on('message', async (message) => {
  if (message.type === 'reset') {
    for (const res of hanging) res.destroy();
    for (const server of servers) server.closeIdleConnections();
    log = freshLog();
    process.send({ type: 'reset-done' });
  } else if (message.type === 'log') {
    let pagesDistinct = 0;
    for (let n = 0; n < pages; n++) pagesDistinct += log.pageSeen[n];
    let maxRobotsPerOrigin = 0;
    let robotsOrigins = 0;
    for (const count of log.robotsPerOrigin) {
      if (count > 0) robotsOrigins++;
      if (count > maxRobotsPerOrigin) maxRobotsPerOrigin = count;
    }
    process.send({
      type: 'log',
      log: {
        robotsRequests: log.robotsRequests,
        robotsOrigins,
        maxRobotsPerOrigin,
        robotsUserAgents: [...log.robotsUserAgents],
        pageRequests: log.pageRequests,
        disallowedRequests: log.disallowedRequests,
        disallowedSamples: log.disallowedSamples,
        otherRequests: log.otherRequests,
        pagesDistinct,
        firstRequestAt: log.firstRequestAt,
      },
    });
  } else if (message.type === 'close') {
    await closeAll();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready', port });
