import { AppError } from '../errors/app-error.ts';

/** Longest accepted key, well under S3's 1024-byte limit once a prefix is added. */
export const MAX_BLOB_KEY_LENGTH = 512;

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * Why a key is invalid, or undefined when it is valid. A key is one or more `/`-separated
 * segments of letters, digits, `.`, `_` and `-`, none empty and none starting with a dot. That
 * excludes `..`, `.`, absolute paths, backslashes, NUL and any other character a file system or
 * an object store might read differently, so a key maps to the same object everywhere and can
 * never leave the store's root.
 */
export function blobKeyProblem(key: string): string | undefined {
  if (typeof key !== 'string' || key.length === 0) return 'the key is empty';
  if (key.length > MAX_BLOB_KEY_LENGTH) return `the key is longer than ${MAX_BLOB_KEY_LENGTH} characters`;
  for (const segment of key.split('/')) {
    if (!SEGMENT.test(segment)) {
      return 'each /-separated segment must be letters, digits, ".", "_" or "-", not empty and not starting with "."';
    }
  }
  return undefined;
}

/** Throws an internal error (keys come from the server, never straight from a client) unless valid. */
export function assertBlobKey(key: string): void {
  const problem = blobKeyProblem(key);
  if (problem !== undefined) {
    throw new AppError('internal_error', 'Invalid storage key', {
      cause: new Error(`invalid blob key ${JSON.stringify(key)}: ${problem}`),
    });
  }
}
