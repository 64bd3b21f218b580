#!/usr/bin/env node
/**
 * Serves the demo site until Ctrl-C and prints its URLs and every request it receives.
 * Usage: `node examples/demo-site/dist/serve.js [--quiet]`; ports come from SHOP_PORT, BLOG_PORT,
 * DOCS_PORT, MIRROR_PORT (default: free ports).
 */
import { startDemoSite } from './server.js';
import { DEMO_ORIGIN_NAMES, type DemoOriginName } from './types.js';

function portFromEnv(name: DemoOriginName): number {
  const raw = process.env[`${name.toUpperCase()}_PORT`];
  if (raw === undefined || raw === '') return 0;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`${name.toUpperCase()}_PORT must be a port number from 0 to 65535, got "${raw}"`);
    process.exit(2);
  }
  return port;
}

const quiet = process.argv.includes('--quiet');
const ports = Object.fromEntries(DEMO_ORIGIN_NAMES.map((name) => [name, portFromEnv(name)]));

try {
  const site = await startDemoSite({
    ports,
    onRequest: quiet
      ? undefined
      : (request) =>
          console.log(
            `${new Date(request.time).toISOString()}  ${request.status}  ${request.origin.padEnd(6)}  ${request.method} ${request.path}  "${request.userAgent}"`,
          ),
  });
  console.log('Heed demo site is running:');
  for (const name of DEMO_ORIGIN_NAMES) {
    console.log(`  ${name.padEnd(6)}  ${site.origins[name]}/   robots.txt: ${site.expected.robots[name].situation}`);
  }
  console.log(`Start crawling at ${site.expected.startUrls.join(', ')} — press Ctrl-C to stop.`);

  const stop = (): void => {
    console.log(`\nStopping after ${site.requests.length} request${site.requests.length === 1 ? '' : 's'}.`);
    void site.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
