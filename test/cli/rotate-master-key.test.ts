import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openCore } from '../../packages/server/src/app.ts';
import { admin } from '../../packages/server/src/commands/admin.ts';
import type { Config } from '../../packages/server/src/config/load-config.ts';
import { dropPostgresSchema, ENGINES, testConfig, uniqueName } from '../support/test-app.ts';

const COOKIE_VALUE = 'rotation-cookie-value';

/**
 * `vitrine admin rotate-master-key` (issue 12): every sealed record, auth profiles and project
 * signing secrets alike, stays usable under the new key, in one transaction.
 */
describe.each(ENGINES)('rotate-master-key on %s', (engine) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    vi.restoreAllMocks();
  });

  function setup(env: Record<string, string>) {
    const { config, dataDir } = testConfig(engine, env);
    const schema = engine === 'postgres' ? uniqueName('rot') : undefined;
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    if (schema) cleanups.push(() => dropPostgresSchema(schema));
    return { config, dataDir, schema };
  }

  async function seed(config: Config, schema: string | undefined) {
    const core = await openCore(config, { databaseSchema: schema });
    try {
      const user = await core.services.accounts.findOrCreateUser(`${uniqueName('u')}@example.com`);
      const { project, signingSecret } = await core.services.projects.create(user.id, {
        name: 'P',
        start_brand_extract: false,
      });
      const rotated = await core.services.projects.rotateSigningSecret(user.id, project.id);
      const { profile } = await core.services.authProfiles.create(user.id, {
        domain: 'app.example.com',
        cookie_header: `sid=${COOKIE_VALUE}`,
      });
      return {
        userId: user.id,
        projectId: project.id,
        secrets: [rotated.signingSecret, signingSecret],
        profileId: profile.id,
      };
    } finally {
      await core.database.close();
    }
  }

  async function readBack(
    config: Config,
    schema: string | undefined,
    seeded: Awaited<ReturnType<typeof seed>>,
  ) {
    const core = await openCore(config, { databaseSchema: schema });
    try {
      const row = await core.repositories.projects.find(seeded.userId, seeded.projectId);
      const secrets = core.services.projects.validSigningSecrets(row!);
      const auth = await core.services.authProfiles.loadForRun(seeded.userId, {
        id: seeded.profileId,
        version: 1,
      });
      return { secrets, cookie: auth.state.cookies[0]?.value };
    } finally {
      await core.database.close();
    }
  }

  const quiet = () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    return vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  };

  it('with VITRINE_SECRET_KEY: re-wraps every record for the new key, which it prints', async () => {
    const oldKey = crypto.randomBytes(32).toString('hex');
    const { config, schema } = setup({ VITRINE_SECRET_KEY: oldKey });
    const seeded = await seed(config, schema);
    const newKey = crypto.randomBytes(32).toString('hex');
    const stdout = quiet();
    await admin.rotateMasterKey(config, { newKey }, { databaseSchema: schema });
    expect(stdout.mock.calls.map((c) => String(c[0])).join('')).toContain(newKey);

    const rotated: Config = { ...config, secrets: { ...config.secrets, secretKey: newKey } };
    const back = await readBack(rotated, schema, seeded);
    expect(back.secrets).toEqual(seeded.secrets);
    expect(back.cookie).toBe(COOKIE_VALUE);
    await expect(readBack(config, schema, seeded)).rejects.toThrow();
  });

  it('with the key file: replaces the file after the commit; a record that does not open changes nothing', async () => {
    const { config, dataDir, schema } = setup({});
    const unset: Config = { ...config, secrets: { ...config.secrets, secretKey: undefined } };
    const seeded = await seed(unset, schema);
    const keyFile = path.join(dataDir, 'secret.key');
    const before = fs.readFileSync(keyFile, 'utf8');
    quiet();
    await admin.rotateMasterKey(unset, {}, { databaseSchema: schema });
    const after = fs.readFileSync(keyFile, 'utf8');
    expect(after).not.toBe(before);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${keyFile}.next`)).toBe(false);
    const back = await readBack(unset, schema, seeded);
    expect(back.secrets).toEqual(seeded.secrets);
    expect(back.cookie).toBe(COOKIE_VALUE);

    // A tampered record: the rotation refuses as a whole and the key file stays.
    const core = await openCore(unset, { databaseSchema: schema });
    try {
      await core.database.db
        .updateTable('auth_profiles')
        .set({ state_sealed: 'v1.AAAA.AAAA.AAAA.AAAA' })
        .where('id', '=', seeded.profileId)
        .execute();
    } finally {
      await core.database.close();
    }
    await expect(admin.rotateMasterKey(unset, {}, { databaseSchema: schema })).rejects.toThrow(
      /nothing was changed/,
    );
    expect(fs.readFileSync(keyFile, 'utf8')).toBe(after);
    expect(fs.existsSync(`${keyFile}.next`)).toBe(false);
    const core2 = await openCore(unset, { databaseSchema: schema });
    try {
      const row = await core2.repositories.projects.find(seeded.userId, seeded.projectId);
      expect(core2.services.projects.validSigningSecrets(row!)).toEqual(seeded.secrets);
    } finally {
      await core2.database.close();
    }
  });
});
