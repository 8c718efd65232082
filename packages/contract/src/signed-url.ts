/**
 * The canonical string of a signed request (docs/api-decisions.md section 4): METHOD, PATH and every
 * query pair but `signature`, each `encodeURIComponent(key)=encodeURIComponent(value)` on the
 * decoded values, sorted as whole strings (JavaScript's default sort) and joined by `&`. The
 * server verifies with it and `vitrine sign` mints with it, so both always agree.
 */
export function canonicalString(
  method: string,
  path: string,
  pairs: Iterable<readonly [string, string]>,
): string {
  const encoded = [...pairs]
    .filter(([key]) => key !== 'signature')
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .sort();
  return `${method.toUpperCase()}\n${path}\n${encoded.join('&')}`;
}
