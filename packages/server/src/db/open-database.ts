import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { DatabaseConfig } from '../config/load-config.ts';
import { tagDependency } from '../errors/dependency-outage.ts';
import { CurrentSchemaPostgresDialect } from './current-schema-dialect.ts';
import { migrateToLatest } from './migrations.ts';
import type { Database, Db } from './tables.ts';

export interface OpenDatabaseOptions {
  /** PostgreSQL schema to use (created if missing); tests isolate themselves with one each. */
  schema?: string;
}

export interface OpenedDatabase {
  db: Db;
  engine: 'sqlite' | 'postgres';
  close(): Promise<void>;
}

/**
 * The PostgreSQL driver, loaded the first time PostgreSQL is configured: the embedded default
 * (SQLite) never loads it, which keeps it out of the service's start-up and heap.
 */
async function postgresDriver() {
  const { default: pg } = await import('pg');
  // COUNT and SUM come back as int8 text from pg; our counts fit in a JS number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
  return pg;
}

/** Opens the configured engine and runs migrations. */
export async function openDatabase(
  config: DatabaseConfig,
  options: OpenDatabaseOptions = {},
): Promise<OpenedDatabase> {
  if (config.kind === 'sqlite') {
    if (config.file !== ':memory:') fs.mkdirSync(path.dirname(config.file), { recursive: true });
    const sqlite = new SQLite(config.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    await migrateToLatest(db as Kysely<unknown>);
    return { db, engine: 'sqlite', close: () => db.destroy() };
  }

  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`Invalid PostgreSQL schema name: ${schema}`);
  }
  const pg = await postgresDriver();
  if (schema !== undefined) {
    const client = new pg.Client({ connectionString: config.url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    // A database that does not accept a connection within 5 s fails the request (a 503 naming
    // the database) instead of holding it until the client gives up (issue 41).
    connectionTimeoutMillis: 5000,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // An idle pooled connection cut by the server (a restart, a failover) is dropped from the
  // pool and reported here; without a listener the 'error' event would end the process.
  pool.on('error', () => undefined);
  // The same for a connection cut while checked out between two queries (inside a transaction):
  // pg-pool removes its own listener while the client is out; the next query on that client
  // fails with "Client has encountered a connection error", which the request reports.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const connect = pool.connect.bind(pool);
  // Failures to connect are the database's being unavailable: tagged for the 503 and /metrics.
  pool.connect = ((callback?: unknown) => {
    if (typeof callback === 'function') return connect(callback as never);
    return connect().catch((error: unknown) => {
      throw tagDependency(error, 'database');
    });
  }) as typeof pool.connect;
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  await migrateToLatest(db as Kysely<unknown>, schema);
  return { db, engine: 'postgres', close: () => db.destroy() };
}
