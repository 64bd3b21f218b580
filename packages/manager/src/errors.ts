/**
 * Errors of `@heed/manager`. Each is its own class, so callers test with `instanceof` instead of
 * matching messages, and each message says what was wrong and what to do about it. All extend
 * `HeedError` (an `Error`), the base class of every Heed package's errors.
 */

import { HeedError } from '@heed/parser';
import { withoutPasswords } from './fetch/credentials.js';

// One option error for every package (defined in @heed/parser): `instanceof` holds whichever
// package threw it. Every error here extends HeedError, which extends Error.
export { HeedError, InvalidOptionsError } from '@heed/parser';

/** What went wrong while fetching a robots.txt, as a stable code callers can branch on. */
export type RobotsFetchErrorCode =
  /** The name did not resolve (`ENOTFOUND`, `EAI_AGAIN`). */
  | 'dns'
  /** Nothing listens on the port (`ECONNREFUSED`). */
  | 'refused'
  /** The connection was reset or closed mid-response (`ECONNRESET`, `socket hang up`). */
  | 'reset'
  /** No connection within `connectTimeoutSecs`. */
  | 'connect-timeout'
  /** The whole fetch (all redirect hops and the body) took longer than `timeoutSecs`. */
  | 'timeout'
  /** The body ended before its announced `Content-Length`. */
  | 'truncated'
  /** A compressed body could not be decoded completely: damaged, cut short, or not in the encoding it claimed. */
  | 'decode'
  /** The TLS handshake failed (bad certificate, protocol mismatch, the server hanging up mid-handshake). */
  | 'tls'
  /** The proxy refused or failed the request. */
  | 'proxy'
  /** Anything else the network stack reported. */
  | 'network';

/**
 * A robots.txt could not be fetched. The manager never throws it from `decide()`: it turns it into an
 * `unreachable` record (see the status policy). It is what `fetchRobotsTxt()` reports, and what a
 * record's `error.code` names.
 */
export class RobotsFetchError extends HeedError {
  override readonly name: string = 'RobotsFetchError';
  readonly code: RobotsFetchErrorCode;
  /** The URL that was being fetched when it failed (a redirect target, possibly). */
  readonly url: string;

  constructor(code: RobotsFetchErrorCode, url: string, message: string, options?: { cause?: unknown }) {
    // Stored in records and logged: a proxy's password quoted by the network stack must not go with it.
    super(withoutPasswords(`Fetching ${url} failed (${code}): ${message}`), options);
    this.code = code;
    this.url = withoutPasswords(url);
  }
}

/**
 * An optional library the chosen configuration needs is not installed (`ioredis` for
 * `new RedisStore({ url })`). Thrown at construction, so a missing install fails the start of a
 * run instead of reading as an outage later. The message gives the install command.
 */
export class MissingDependencyError extends HeedError {
  override readonly name: string = 'MissingDependencyError';
  /** The npm package to install, e.g. `ioredis`. */
  readonly dependency: string;

  /** `feature` says what needs it (`new RedisStore({ url })`); `instead`, what else the caller may do. */
  constructor(dependency: string, feature: string, instead?: string) {
    super(
      `${feature} needs ${dependency}, which is not installed: run "npm install ${dependency}"${instead === undefined ? '' : `, or ${instead}`}.`,
    );
    this.dependency = dependency;
  }
}

/** A method of a `RobotsManager` was called after `close()`. Create a new manager instead. */
export class ManagerClosedError extends HeedError {
  override readonly name: string = 'ManagerClosedError';
  constructor(method: string) {
    super(`RobotsManager.${method}() was called after close(); create a new RobotsManager to keep checking.`);
  }
}

/** `get()` was given something that is not an absolute http(s) URL or origin. */
export class InvalidUrlError extends HeedError {
  override readonly name: string = 'InvalidUrlError';
  readonly url: string;
  constructor(url: unknown) {
    super(
      `${JSON.stringify(String(url)).slice(0, 200)} is not an absolute http(s) URL; pass e.g. "https://example.com/page" or "https://example.com".`,
    );
    this.url = String(url);
  }
}
