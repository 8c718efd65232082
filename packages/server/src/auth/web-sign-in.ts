import { type Clock, isoNow } from '../clock.ts';
import type { Db } from '../db/tables.ts';
import type { UserRow, UsersRepository } from '../db/users-repository.ts';
import { hasAnyUser, insertFirstUser } from '../db/users-repository.ts';
import { AppError } from '../errors/app-error.ts';
import { newId } from '../ids.ts';
import { normalizeEmail, utcMonth } from './accounts.ts';
import type { AttemptLimiter } from './attempt-limiter.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/** Failed sign-ins allowed per account, and per client IP, before sign-in pauses. */
export const SIGN_IN_LIMITS = {
  perAccount: { failures: 10, windowSeconds: 15 * 60 },
  perIp: { failures: 50, windowSeconds: 60 * 60 },
} as const;

export interface WebSignInDeps {
  db: Db;
  engine: 'sqlite' | 'postgres';
  users: UsersRepository;
  clock: Clock;
  defaultMonthlyCredits: number;
  failuresPerAccount: AttemptLimiter;
  failuresPerIp: AttemptLimiter;
}

export type SignInOutcome = { ok: true; user: UserRow } | { ok: false };

/**
 * Email and password sign-in for the web pages, throttled per account and per client IP. Every
 * failure looks the same to the caller (unknown email, wrong password, no password set,
 * throttled), so the page cannot be used to learn which emails have accounts.
 */
export function createWebSignIn(deps: WebSignInDeps) {
  /** A scrypt hash checked when the email is unknown, so both failures take as long. */
  let decoyHash: Promise<string> | undefined;

  async function signIn(emailInput: string, password: string, ip: string): Promise<SignInOutcome> {
    let email: string;
    try {
      email = normalizeEmail(emailInput);
    } catch {
      return { ok: false };
    }
    const accountKey = `account:${email}`;
    const ipKey = `ip:${ip}`;
    const [accountWait, ipWait] = await Promise.all([
      deps.failuresPerAccount.retryAfter(accountKey),
      deps.failuresPerIp.retryAfter(ipKey),
    ]);
    if (accountWait > 0 || ipWait > 0) return { ok: false };

    const user = await deps.users.findByEmail(email);
    decoyHash ??= hashPassword('decoy password that never matches');
    const stored = user?.password_hash ?? (await decoyHash);
    const matches =
      password.length <= PASSWORD_MAX_LENGTH &&
      (await verifyPassword(password, stored)) &&
      !!user?.password_hash;
    if (!user || !matches) {
      await Promise.all([deps.failuresPerAccount.fail(accountKey), deps.failuresPerIp.fail(ipKey)]);
      return { ok: false };
    }
    await deps.failuresPerAccount.clear(accountKey);
    return { ok: true, user };
  }

  /** Whether first-run setup is still open (no account exists yet). */
  async function setupOpen(): Promise<boolean> {
    return !(await hasAnyUser(deps.db));
  }

  /** Creates the first account; null when one exists already (setup is closed). */
  async function setUp(emailInput: string, password: string): Promise<UserRow | null> {
    const email = normalizeEmail(emailInput);
    if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
      throw new AppError(
        'invalid_params',
        `The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
      );
    }
    const now = deps.clock();
    return insertFirstUser(deps.db, deps.engine, {
      id: newId('user'),
      email,
      passwordHash: await hashPassword(password),
      monthlyCredits: deps.defaultMonthlyCredits,
      period: utcMonth(now),
      now: isoNow(deps.clock),
    });
  }

  return { signIn, setupOpen, setUp };
}

export type WebSignIn = ReturnType<typeof createWebSignIn>;
