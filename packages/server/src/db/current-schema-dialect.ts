import {
  type DatabaseIntrospector,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/**
 * Kysely's PostgreSQL introspector lists the tables of every schema in the database and calls
 * `pg_get_serial_sequence` on each by name, so a schema another client drops meanwhile fails it
 * with "schema ... does not exist" (3F000). The migrator runs it (to find its own tables) before it
 * takes its lock, which made a migration fail now and then while other schemas came and went (the
 * test suite's one schema per file; any database shared with other apps). Vitrine's tables live in
 * one schema, the connection's current one: this introspector lists that schema's tables only,
 * names and kinds (the migrator needs no columns), and leaves schemas to Kysely's own.
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #kysely: DatabaseIntrospector;

  constructor(db: Kysely<unknown>, kysely: DatabaseIntrospector) {
    this.#db = db;
    this.#kysely = kysely;
  }

  getSchemas(): Promise<SchemaMetadata[]> {
    return this.#kysely.getSchemas();
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, n.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p', 'f')
      order by c.relname`.execute(this.#db);
    return rows.map((row) => ({
      name: row.name,
      schema: row.schema,
      isView: row.kind === 'v',
      isForeign: row.kind === 'f',
      columns: [],
    }));
  }
}

/** PostgreSQL as Kysely speaks it, introspecting only the connection's current schema. */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db, super.createIntrospector(db));
  }
}
