import { isScope, SCOPES, type Scope } from '@vitrine/contract';
import { type Clock, isoNow } from '../clock.ts';
import type { ApiKeyRow, ApiKeysRepository } from '../db/api-keys-repository.ts';
import type { UserRow, UsersRepository } from '../db/users-repository.ts';
import { AppError, invalidParam } from '../errors/app-error.ts';
import { newId } from '../ids.ts';
import { displayPrefix, generateApiKey, hashApiKey, type KeyMode } from './api-key-format.ts';
import { hashPassword } from './passwords.ts';

export interface AccountsDeps {
  users: UsersRepository;
  apiKeys: ApiKeysRepository;
  clock: Clock;
  defaultMonthlyCredits: number;
}

export interface IssuedKey {
  key: string;
  row: ApiKeyRow;
}

export interface NewKeyOptions {
  mode: KeyMode;
  scopes: Scope[];
  label: string;
  createdBy: ApiKeyRow['created_by'];
}

const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;

export function normalizeEmail(email: string): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(normalized))
    throw invalidParam('email', 'Must be an email address like you@example.com');
  return normalized;
}

export function parseScopes(list: readonly string[]): Scope[] {
  const unknown = list.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    throw invalidParam('scopes', `Unknown scope ${unknown.join(', ')}. Must be any of: ${SCOPES.join(', ')}`);
  }
  return [...new Set(list)] as Scope[];
}

export function utcMonth(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** Users and their API keys: what the admin commands and the device login act on. */
export function createAccounts(deps: AccountsDeps) {
  const { users, apiKeys, clock } = deps;

  async function createUser(email: string, password: string | null): Promise<UserRow> {
    const normalized = normalizeEmail(email);
    if (password !== null && password.length < 8)
      throw invalidParam('password', 'Must be at least 8 characters');
    if (await users.findByEmail(normalized))
      throw new AppError('conflict', `A user with email ${normalized} exists`);
    const now = clock();
    return users.insert({
      id: newId('user'),
      email: normalized,
      passwordHash: password === null ? null : await hashPassword(password),
      monthlyCredits: deps.defaultMonthlyCredits,
      period: utcMonth(now),
      now: now.toISOString(),
    });
  }

  async function findOrCreateUser(email: string): Promise<UserRow> {
    return (await users.findByEmail(normalizeEmail(email))) ?? createUser(email, null);
  }

  /** A new key and its row, not stored yet (the device login stores it in its own transaction). */
  function newKey(userId: string, options: NewKeyOptions): IssuedKey {
    const key = generateApiKey(options.mode);
    const row: ApiKeyRow = {
      id: newId('apiKey'),
      user_id: userId,
      key_hash: hashApiKey(key),
      display_prefix: displayPrefix(key),
      mode: options.mode,
      scopes: JSON.stringify(options.scopes),
      label: options.label,
      created_by: options.createdBy,
      created_at: isoNow(clock),
      last_used_at: null,
      revoked_at: null,
    };
    return { key, row };
  }

  async function issueKey(user: UserRow, options: NewKeyOptions): Promise<IssuedKey> {
    const issued = newKey(user.id, options);
    await apiKeys.insert(issued.row);
    return issued;
  }

  async function setCredits(email: string, remaining: number, monthly?: number): Promise<UserRow> {
    const user = await users.findByEmail(normalizeEmail(email));
    if (!user) throw new AppError('not_found', `No user with email ${email}`);
    const now = clock();
    await users.setCredits(user.id, remaining, monthly, utcMonth(now), now.toISOString());
    return (await users.findById(user.id))!;
  }

  return { createUser, findOrCreateUser, newKey, issueKey, setCredits, users, apiKeys };
}

export type Accounts = ReturnType<typeof createAccounts>;
