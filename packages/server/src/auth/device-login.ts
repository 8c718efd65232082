import crypto from 'node:crypto';
import {
  DEVICE_CODE_LIFETIME_SECONDS,
  DEVICE_POLL_INTERVAL_SECONDS,
  DEVICE_SLOW_DOWN_STEP_SECONDS,
  type DeviceCode,
  type DeviceTokenResponse,
  formatUserCode,
  type Scope,
  USER_CODE_ALPHABET,
  USER_CODE_LENGTH,
} from '@vitrine/contract';
import { type Clock, isoNow } from '../clock.ts';
import type { DeviceCodeRow, DeviceCodesRepository } from '../db/device-codes-repository.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { AppError } from '../errors/app-error.ts';
import { newInternalId } from '../ids.ts';
import type { Accounts } from './accounts.ts';

export interface DeviceLoginDeps {
  codes: DeviceCodesRepository;
  accounts: Pick<Accounts, 'newKey'>;
  clock: Clock;
  /** Base of the verification address (`{public}/device`). */
  publicUrl: string;
}

export interface NewDeviceCode {
  scopes: Scope[];
  clientName: string | undefined;
  clientIp: string;
  userAgent: string | undefined;
}

/** What the approval page shows about a code. */
export interface DeviceCodeRequestView {
  id: string;
  userCode: string;
  scopes: Scope[];
  clientName: string | null;
  userAgent: string | null;
  clientIp: string;
  createdAt: string;
  expiresAt: string;
}

const USER_AGENT_MAX = 200;

/** A uniformly random user code (rejection sampling: 256 is not a multiple of 20). */
function randomUserCode(): string {
  let code = '';
  while (code.length < USER_CODE_LENGTH) {
    for (const byte of crypto.randomBytes(USER_CODE_LENGTH * 2)) {
      const limit = 256 - (256 % USER_CODE_ALPHABET.length);
      if (byte < limit && code.length < USER_CODE_LENGTH)
        code += USER_CODE_ALPHABET[byte % USER_CODE_ALPHABET.length];
    }
  }
  return code;
}

export function hashPollToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

function expiredToken(): AppError {
  return new AppError('expired_token', 'This device code expired or was already used; run the login again');
}

function viewOf(row: DeviceCodeRow): DeviceCodeRequestView {
  return {
    id: row.id,
    userCode: formatUserCode(row.user_code),
    scopes: JSON.parse(row.scopes) as Scope[],
    clientName: row.client_name,
    userAgent: row.user_agent,
    clientIp: row.client_ip,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/**
 * The device flow of docs/api-decisions.md section 6. A poll token is 32 random bytes shown once; only
 * its SHA-256 is stored. Every transition is a conditional update, so concurrent polls and
 * clicks have exactly one winner, and the key exists only once the winning poll stores it.
 */
export function createDeviceLogin(deps: DeviceLoginDeps) {
  const { codes, clock } = deps;

  async function create(request: NewDeviceCode): Promise<DeviceCode> {
    const now = clock();
    await codes.pruneExpired(now.toISOString());
    const pollToken = crypto.randomBytes(32).toString('hex');
    const expiresAt = new Date(now.getTime() + DEVICE_CODE_LIFETIME_SECONDS * 1000).toISOString();
    for (let attempt = 0; ; attempt++) {
      const userCode = randomUserCode();
      try {
        await codes.insert({
          id: newInternalId('dev'),
          user_code: userCode,
          poll_token_hash: hashPollToken(pollToken),
          status: 'pending',
          scopes: JSON.stringify(request.scopes),
          client_name: request.clientName ?? null,
          client_ip: request.clientIp,
          user_agent: request.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
          interval_seconds: DEVICE_POLL_INTERVAL_SECONDS,
          created_at: now.toISOString(),
          expires_at: expiresAt,
          last_polled_at: null,
          decided_by: null,
          decided_at: null,
          api_key_id: null,
        });
        const display = formatUserCode(userCode);
        const verification = `${deps.publicUrl}/device`;
        return {
          user_code: display,
          poll_token: pollToken,
          verification_uri: verification,
          verification_uri_complete: `${verification}?code=${display}`,
          expires_in: DEVICE_CODE_LIFETIME_SECONDS,
          interval: DEVICE_POLL_INTERVAL_SECONDS,
        };
      } catch (error) {
        // 20^8 codes: a clash with a live code is rare; draw again a few times.
        if (!isUniqueViolation(error) || attempt >= 4) throw error;
      }
    }
  }

  /** One poll; the token's format was checked by the route schema before this lookup. */
  async function poll(pollToken: string): Promise<DeviceTokenResponse> {
    const row = await codes.findByPollTokenHash(hashPollToken(pollToken));
    const now = clock();
    const nowIso = now.toISOString();
    if (!row || row.expires_at <= nowIso) throw expiredToken();
    if (row.status === 'denied') {
      throw new AppError('access_denied', 'The login was denied in the browser');
    }
    if (row.status === 'redeemed') throw expiredToken();

    const sinceLast = row.last_polled_at === null ? Infinity : now.getTime() - Date.parse(row.last_polled_at);
    const onTime =
      sinceLast >= row.interval_seconds * 1000 &&
      (await codes.recordPoll(row.id, row.last_polled_at, nowIso));
    if (!onTime) {
      const interval = await codes.slowDown(row.id, DEVICE_SLOW_DOWN_STEP_SECONDS);
      throw new AppError('slow_down', `Polled too soon; wait at least ${interval} seconds between polls`, {
        retryAfter: interval,
        details: { interval },
      });
    }

    if (row.status === 'approved' && row.decided_by !== null) {
      const scopes = JSON.parse(row.scopes) as Scope[];
      const issued = deps.accounts.newKey(row.decided_by, {
        mode: 'live',
        scopes,
        label: row.client_name ? `Device login: ${row.client_name}` : 'Device login',
        createdBy: 'device_login',
      });
      if (!(await codes.redeem(row.id, issued.row))) throw expiredToken();
      return {
        status: 'authorized',
        api_key: issued.key,
        key_id: issued.row.id,
        user_id: row.decided_by,
      };
    }
    return {
      status: 'pending',
      interval: row.interval_seconds,
      expires_in: Math.max(0, Math.ceil((Date.parse(row.expires_at) - now.getTime()) / 1000)),
    };
  }

  /** A code waiting for a decision, by its normalised letters; undefined when unknown or no longer pending. */
  async function findPending(userCode: string): Promise<DeviceCodeRequestView | undefined> {
    const row = await codes.findByUserCode(userCode);
    if (row?.status !== 'pending' || row.expires_at <= isoNow(clock)) return undefined;
    return viewOf(row);
  }

  /** Approves or denies a pending code; false when it is no longer pending (decided, expired). */
  async function decide(codeId: string, decision: 'approve' | 'deny', userId: string): Promise<boolean> {
    return codes.decide(codeId, decision === 'approve' ? 'approved' : 'denied', userId, isoNow(clock));
  }

  return { create, poll, findPending, decide };
}

export type DeviceLogin = ReturnType<typeof createDeviceLogin>;
