import crypto from 'node:crypto';

/** Longest wait for one page's HTML. */
const PAGE_TIMEOUT_MS = 20_000;
/** Largest document hashed (a bigger one is hashed over its first bytes and its length). */
const MAX_BYTES = 8 * 1024 * 1024;

export function sha256(text: string | Buffer): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** The page a request captures: `url` (or `site`; a bare host gets https://), or null for `html`. */
export function pageUrlOf(request: Record<string, unknown>): string | null {
  const given = request.url ?? request.site;
  if (typeof given !== 'string') return null;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(given) ? given : `https://${given}`;
}

/**
 * The page's content hash, the cheap way (docs/batches.md): one plain GET of the document from
 * this machine, redirects followed, and a SHA-256 of its final URL, status and bytes; no browser,
 * no sub-resources. An `html` document hashes itself (it is in the request). A page that cannot
 * be fetched gets a hash of the failure, which never matches a rendered one, so its shots render.
 */
export async function pageHashOf(request: Record<string, unknown>, userAgent: string): Promise<string> {
  const url = pageUrlOf(request);
  if (url === null) return sha256(`html\n${String(request.html ?? '')}\n${String(request.css ?? '')}`);
  try {
    const response = await fetch(url, {
      headers: { 'user-agent': userAgent, accept: 'text/html,*/*' },
      redirect: 'follow',
      signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const kept = bytes.length > MAX_BYTES ? bytes.subarray(0, MAX_BYTES) : bytes;
    return sha256(
      Buffer.concat([Buffer.from(`${response.url}\n${response.status}\n${bytes.length}\n`), kept]),
    );
  } catch (error) {
    return sha256(`unreachable\n${url}\n${Date.now()}\n${(error as Error).message}`);
  }
}
