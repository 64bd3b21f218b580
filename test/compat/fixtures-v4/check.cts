// A user's CommonJS TypeScript file: typechecks against the same declarations and compiles to require().
import { RobotsPlugin, UnsupportedCrawlerError } from '@heed/crawlee';
import { RobotsManager } from '@heed/manager';
import { parseRobotsTxt } from '@heed/parser';

export const exported: [typeof RobotsPlugin, typeof UnsupportedCrawlerError, typeof RobotsManager, typeof parseRobotsTxt] = [
  RobotsPlugin,
  UnsupportedCrawlerError,
  RobotsManager,
  parseRobotsTxt,
];
console.log(JSON.stringify(exported.map((value) => typeof value)));
