/**
 * Whether an optional peer dependency (`ioredis`) is installed, asked when a store is constructed:
 * the store imports it only when it first connects, and a failed import then would look like an
 * outage (records kept in memory, nothing shared), not like the missing install it is.
 */
import { createRequire } from 'node:module';
import { MissingDependencyError } from '../errors.js';

const require = createRequire(import.meta.url);

/** @throws MissingDependencyError when `name` cannot be resolved from this package. */
export function assertInstalled(name: string, feature: string, instead?: string): void {
  try {
    require.resolve(name);
  } catch (error) {
    // Installed, but for `import` only (an exports map without a `require` condition): present.
    if ((error as { code?: unknown }).code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return;
    throw new MissingDependencyError(name, feature, instead);
  }
}
