import crypto from 'node:crypto';
import { isScope, type Scope } from '@vitrine/contract';
import { type AppOptions, openCore } from '../app.ts';
import { parseScopes } from '../auth/accounts.ts';
import type { Config } from '../config/load-config.ts';
import { rewrapSealedColumns } from '../db/sealed-columns.ts';
import { AppError } from '../errors/app-error.ts';
import { decodeKey, stageMasterKeyFile } from '../secrets/master-key.ts';

type Core = Awaited<ReturnType<typeof openCore>>;

/** Runs one admin action against the same database the server uses, then closes it. */
async function withCore<T>(
  config: Config,
  action: (core: Core) => Promise<T>,
  options: AppOptions = {},
): Promise<T> {
  const core = await openCore(config, options);
  try {
    return await action(core);
  } finally {
    await core.database.close();
  }
}

function parseNonNegative(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value))
    throw new AppError('invalid_params', `${flag} must be a non-negative integer, got "${value}"`);
  return Number(value);
}

export const admin = {
  async createUser(config: Config, opts: { email: string; password: string }) {
    await withCore(config, async ({ services }) => {
      const user = await services.accounts.createUser(opts.email, opts.password);
      process.stdout.write(
        `Created user ${user.id} <${user.email}> with ${user.credits_remaining} credits\n`,
      );
    });
  },

  async createKey(
    config: Config,
    opts: { email: string; scopes?: string; test?: boolean; credits?: string; label?: string },
  ) {
    const scopes: Scope[] = opts.scopes
      ? parseScopes(
          opts.scopes
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        )
      : [];
    const credits = parseNonNegative('--credits', opts.credits);
    await withCore(config, async ({ services }) => {
      const user = await services.accounts.findOrCreateUser(opts.email);
      if (credits !== undefined) await services.accounts.setCredits(user.email, credits, credits);
      const { key, row } = await services.accounts.issueKey(user, {
        mode: opts.test ? 'test' : 'live',
        scopes,
        label: opts.label ?? 'admin',
        createdBy: 'admin',
      });
      const scopeText = scopes.length > 0 ? scopes.join(',') : 'all scopes';
      process.stderr.write(
        `Created ${row.mode} key ${row.id} for ${user.email} (${scopeText}). It is shown once; store it now:\n`,
      );
      process.stdout.write(`${key}\n`);
    });
  },

  async listKeys(config: Config, opts: { email?: string }) {
    await withCore(config, async ({ services }) => {
      const user = opts.email
        ? await services.accounts.users.findByEmail(opts.email.toLowerCase())
        : undefined;
      if (opts.email && !user) throw new AppError('not_found', `No user with email ${opts.email}`);
      const keys = await services.accounts.apiKeys.list(user?.id);
      for (const key of keys) {
        const scopes = (JSON.parse(key.scopes) as string[]).filter(isScope);
        process.stdout.write(
          `${[
            key.id,
            key.display_prefix,
            key.email,
            key.mode,
            scopes.length ? scopes.join(',') : 'all',
            key.revoked_at ? `revoked ${key.revoked_at}` : 'active',
            `last used ${key.last_used_at ?? 'never'}`,
          ].join('  ')}\n`,
        );
      }
      if (keys.length === 0) process.stdout.write('No keys\n');
    });
  },

  async revokeKey(config: Config, id: string) {
    await withCore(config, async ({ services, clock }) => {
      if (!(await services.accounts.apiKeys.revoke(id, clock().toISOString()))) {
        throw new AppError('not_found', `No active key ${id}`);
      }
      process.stdout.write(`Revoked ${id}\n`);
    });
  },

  /**
   * Re-wraps every sealed record's data key (project signing secrets, auth profiles) with a new
   * master key in one transaction. With the key file, the file is replaced after the commit;
   * with VITRINE_SECRET_KEY, the new key is printed for the operator to set. Every server
   * process must be stopped first and started after: they hold the old key in memory.
   */
  async rotateMasterKey(config: Config, opts: { newKey?: string }, coreOptions: AppOptions = {}) {
    let newKey: Buffer;
    try {
      newKey = opts.newKey === undefined ? crypto.randomBytes(32) : decodeKey(opts.newKey);
    } catch {
      throw new AppError('invalid_params', '--new-key must be 32 bytes as 64 hex characters or base64');
    }
    const fromFile = config.secrets.secretKey === undefined;
    await withCore(
      config,
      async ({ database, sealedBox }) => {
        const staged = fromFile ? stageMasterKeyFile(config.server.dataDir, newKey) : undefined;
        let counts: Awaited<ReturnType<typeof rewrapSealedColumns>>;
        try {
          counts = await rewrapSealedColumns(database.db, (sealed, id) =>
            sealedBox.rewrap(sealed, id, newKey),
          );
        } catch (error) {
          staged?.abandon();
          throw new AppError(
            'internal_error',
            'Rotation failed; nothing was changed (a record did not open under the current key)',
            {
              cause: error,
            },
          );
        }
        staged?.commit();
        const summary = Object.entries(counts)
          .map(([table, n]) => `${n} ${table}`)
          .join(', ');
        process.stderr.write(`Re-wrapped every sealed record (${summary}) with the new master key.\n`);
        if (fromFile) {
          process.stderr.write('The key file was replaced. Start the server processes again.\n');
        } else {
          process.stderr.write(
            'Set VITRINE_SECRET_KEY to the new key below in every process, then start them again:\n',
          );
          process.stdout.write(`${newKey.toString('hex')}\n`);
        }
      },
      coreOptions,
    );
  },

  async setCredits(config: Config, opts: { email: string; credits: string; monthly?: string }) {
    const credits = parseNonNegative('--credits', opts.credits)!;
    const monthly = parseNonNegative('--monthly', opts.monthly);
    await withCore(config, async ({ services }) => {
      const user = await services.accounts.setCredits(opts.email, credits, monthly);
      process.stdout.write(
        `${user.email}: ${user.credits_remaining} credits (monthly ${user.credits_monthly})\n`,
      );
    });
  },
};
