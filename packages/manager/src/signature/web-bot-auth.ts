/**
 * Cloudflare's `web-bot-auth`, loaded the first time something signs: a crawler without the
 * `signature` option does not pay its import (about a third of the manager's own import time).
 * Synchronous (its CommonJS build), because the option is resolved in a constructor and a
 * request is signed in the hook that sends it.
 */
import { createRequire } from 'node:module';

type WebBotAuth = typeof import('web-bot-auth');

let loaded: WebBotAuth | undefined;

export function webBotAuth(): WebBotAuth {
  loaded ??= createRequire(import.meta.url)('web-bot-auth') as WebBotAuth;
  return loaded;
}
