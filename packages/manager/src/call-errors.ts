/**
 * Errors about how a constructor was called (a bad option) start their stack at the caller's line:
 * that is the line to fix, and Node.js shows the first frame's source line when the error is not
 * caught. Without this, the user reads a line of Heed's bundle and the frames of its option checks.
 */

/** Runs `read` (the checks of a constructor's arguments); an error it throws is rethrown with its stack starting where `callee` was called. */
export function checkedAtCall<T>(callee: NewableFunction, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof Error) Error.captureStackTrace(error, callee);
    throw error;
  }
}
