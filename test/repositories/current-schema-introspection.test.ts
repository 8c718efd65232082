import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenedDatabase, openDatabase } from '../../packages/server/src/db/open-database.ts';
import { dropPostgresSchema, POSTGRES_URL, uniqueName } from '../support/test-app.ts';

/**
 * Migrations look up Kysely's own tables through the introspector before they take their lock.
 * Kysely's PostgreSQL introspector read every schema of the database and failed with 3F000 when
 * another client dropped one meanwhile (seen as a rare "Database migration failed" in the suite,
 * whose files each drop their schema at the end); ours reads the connection's schema only.
 */
describe('PostgreSQL introspection of the current schema only', () => {
  const ours = uniqueName('introspect');
  const other = uniqueName('introspect_other');
  let opened: OpenedDatabase;
  let admin: pg.Client;

  beforeAll(async () => {
    opened = await openDatabase({ kind: 'postgres', url: POSTGRES_URL }, { schema: ours });
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    // A schema of someone else's with tables of the same names as ours, one of them Kysely's.
    await admin.query(`CREATE SCHEMA "${other}"`);
    await admin.query(`CREATE TABLE "${other}".kysely_migration (name text primary key)`);
    await admin.query(`CREATE TABLE "${other}".users (id serial primary key)`);
  });

  afterAll(async () => {
    await admin?.end();
    await opened?.close();
    await dropPostgresSchema(ours);
    await dropPostgresSchema(other);
  });

  it("lists the current schema's tables and none of another schema's", async () => {
    const tables = await opened.db.introspection.getTables({ withInternalKyselyTables: true });
    const names = tables.map((table) => table.name);
    expect(names).toEqual(expect.arrayContaining(['kysely_migration', 'users', 'jobs', 'captures']));
    expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([ours]));
    expect(names.filter((name) => name === 'users')).toHaveLength(1);
  });

  it('migrates a new schema while other schemas with serial columns are dropped at the same time', async () => {
    const churn = async (round: number) => {
      const doomed = uniqueName(`doomed${round}`);
      await admin.query(`CREATE SCHEMA "${doomed}"`);
      await admin.query(`CREATE TABLE "${doomed}".t (id serial primary key)`);
      return doomed;
    };
    for (let round = 0; round < 5; round += 1) {
      const doomed = await Promise.all([churn(round * 3), churn(round * 3 + 1), churn(round * 3 + 2)]);
      const fresh = uniqueName('introspect_fresh');
      const [migrated] = await Promise.all([
        openDatabase({ kind: 'postgres', url: POSTGRES_URL }, { schema: fresh }),
        ...doomed.map((schema) => dropPostgresSchema(schema)),
      ]);
      const tables = await migrated.db.introspection.getTables();
      expect(tables.map((table) => table.name)).toContain('users');
      await migrated.close();
      await dropPostgresSchema(fresh);
    }
  });
});
