import { z } from 'zod';

/** The message of a trimmed field that is empty or whitespace alone (`{"name": "\f"}`). */
export const BLANK_TEXT_MESSAGE = 'must not be empty or whitespace only';

/**
 * A name-like text: surrounding whitespace is dropped (as `String.prototype.trim` does) and what
 * is left must not be empty. The document states it as `pattern: \S` (a non-whitespace
 * character somewhere), since `minLength: 1` alone would let a client send `"\f"`.
 */
export function trimmedText(max: number) {
  return z.string().trim().min(1, BLANK_TEXT_MESSAGE).max(max).meta({ pattern: '\\S' });
}
