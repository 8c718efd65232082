import type { Scope } from '@vitrine/contract';
import { type Clock, isoNow } from '../clock.ts';
import type { ApiKeysRepository } from '../db/api-keys-repository.ts';
import { AppError } from '../errors/app-error.ts';
import { hashApiKey, type KeyMode, parseApiKey } from './api-key-format.ts';

/** Who is calling: resolved from a valid, unrevoked API key. */
export interface Principal {
  userId: string;
  /** Null for a signed-URL request, which acts for the project's owner without a key. */
  keyId: string | null;
  /** Set for a signed-URL request: the project that signed it. */
  signedProjectId?: string;
  mode: KeyMode;
  /** Empty means full access. */
  scopes: Scope[];
}

const LAST_USED_RESOLUTION_MS = 60_000;

export function createAuthenticator(deps: { apiKeys: ApiKeysRepository; clock: Clock }) {
  return {
    /** Resolves a raw key; malformed keys are refused before any database lookup. */
    async authenticate(rawKey: string): Promise<Principal> {
      if (!parseApiKey(rawKey)) throw new AppError('unauthorized', 'Malformed API key');
      const row = await deps.apiKeys.findByHash(hashApiKey(rawKey));
      if (!row) throw new AppError('unauthorized', 'Unknown API key');
      if (row.revoked_at !== null) throw new AppError('unauthorized', 'This API key was revoked');
      const now = deps.clock();
      await deps.apiKeys.touchLastUsed(
        row.id,
        isoNow(deps.clock),
        new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString(),
      );
      return {
        userId: row.user_id,
        keyId: row.id,
        mode: row.mode,
        scopes: JSON.parse(row.scopes) as Scope[],
      };
    },
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;

export function requireScope(principal: Principal, scope: Scope): void {
  if (principal.scopes.length > 0 && !principal.scopes.includes(scope)) {
    throw new AppError('forbidden_scope', `This API key lacks the "${scope}" scope`, {
      details: { required_scope: scope },
    });
  }
}
