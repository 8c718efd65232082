import { type ApiKey, type KeyOrigin, type Scope, scopesCover } from '@vitrine/contract';
import { type Clock, isoNow } from '../clock.ts';
import type { ApiKeyRow, ApiKeysRepository } from '../db/api-keys-repository.ts';
import type { UserRow } from '../db/users-repository.ts';
import { AppError, notFound } from '../errors/app-error.ts';
import type { Accounts } from './accounts.ts';

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    prefix: row.display_prefix,
    label: row.label,
    mode: row.mode,
    scopes: JSON.parse(row.scopes) as Scope[],
    created_by: row.created_by as KeyOrigin,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}

export interface AccountKeysDeps {
  accounts: Pick<Accounts, 'issueKey'>;
  apiKeys: ApiKeysRepository;
  clock: Clock;
}

/**
 * An account's own keys, as the account page and `/v1/keys` manage them. Self-service keys are
 * live keys (test keys render without debiting, so only an operator hands them out), and a key
 * never creates one with more scopes than it has itself.
 */
export function createAccountKeys(deps: AccountKeysDeps) {
  async function list(userId: string): Promise<ApiKey[]> {
    return (await deps.apiKeys.list(userId)).map(toApiKey);
  }

  async function get(userId: string, keyId: string): Promise<ApiKey> {
    const row = await deps.apiKeys.findById(keyId);
    if (!row || row.user_id !== userId) throw notFound(`API key ${keyId}`);
    return toApiKey(row);
  }

  async function create(
    user: UserRow,
    options: { label: string | undefined; scopes: Scope[]; origin: KeyOrigin; heldScopes: Scope[] | null },
  ): Promise<{ key: ApiKey; apiKey: string }> {
    const scopes = [...new Set(options.scopes)];
    if (options.heldScopes !== null && !scopesCover(options.heldScopes, scopes)) {
      const held = options.heldScopes.join(', ');
      throw new AppError(
        'forbidden_scope',
        `This API key (scopes: ${held}) can only create keys with some of its own scopes`,
        { details: { required_scope: scopes.length === 0 ? 'full access' : scopes.join(',') } },
      );
    }
    const issued = await deps.accounts.issueKey(user, {
      mode: 'live',
      scopes,
      label: options.label ?? 'API key',
      createdBy: options.origin,
    });
    return { key: toApiKey(issued.row), apiKey: issued.key };
  }

  /** Revokes one of the account's keys; 404 for another account's key or an unknown id. */
  async function revoke(userId: string, keyId: string): Promise<ApiKey> {
    const row = await deps.apiKeys.findById(keyId);
    if (!row || row.user_id !== userId) throw notFound(`API key ${keyId}`);
    if (row.revoked_at === null) await deps.apiKeys.revoke(keyId, isoNow(deps.clock));
    return get(userId, keyId);
  }

  return { list, get, create, revoke };
}

export type AccountKeys = ReturnType<typeof createAccountKeys>;
