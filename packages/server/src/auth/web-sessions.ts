import crypto from 'node:crypto';
import { type Clock, isoNow } from '../clock.ts';
import type { UserRow, UsersRepository } from '../db/users-repository.ts';
import type { WebSessionsRepository } from '../db/web-sessions-repository.ts';

/** How long a web session lasts after sign-in. */
export const WEB_SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface WebSessionsDeps {
  sessions: WebSessionsRepository;
  users: UsersRepository;
  clock: Clock;
}

function hashSessionId(id: string): string {
  return crypto.createHash('sha256').update(id).digest('hex');
}

/**
 * The key that signs the session cookie, derived from the master key so that no other secret
 * has to be configured, and different from every other use of that key.
 */
export function sessionCookieSecret(masterKey: Buffer): string {
  return Buffer.from(
    crypto.hkdfSync('sha256', masterKey, Buffer.alloc(0), 'vitrine web session cookie', 32),
  ).toString('base64url');
}

/**
 * Server-side sessions of the web pages. The browser holds a random 256-bit id (in a signed
 * cookie); the database holds its SHA-256, so a database dump signs nobody in, and deleting the
 * row signs the browser out at once.
 */
export function createWebSessions(deps: WebSessionsDeps) {
  const { sessions, users, clock } = deps;

  async function start(userId: string, ip: string, userAgent: string | undefined) {
    const now = clock();
    await sessions.pruneExpired(now.toISOString());
    const id = crypto.randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + WEB_SESSION_TTL_MS);
    await sessions.insert({
      id_hash: hashSessionId(id),
      user_id: userId,
      ip,
      user_agent: userAgent?.slice(0, 200) ?? null,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
    });
    return { id, expiresAt };
  }

  /** The signed-in user of a session id, or null when it is unknown, expired or revoked. */
  async function resolve(id: string): Promise<UserRow | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const row = await sessions.findLive(hashSessionId(id), isoNow(clock));
    if (!row) return null;
    return (await users.findById(row.user_id)) ?? null;
  }

  async function end(id: string): Promise<void> {
    await sessions.delete(hashSessionId(id));
  }

  return { start, resolve, end };
}

export type WebSessions = ReturnType<typeof createWebSessions>;
