import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type OpenedDatabase, openDatabase } from '../../packages/server/src/db/open-database.ts';
import { dropPostgresSchema, type Engine, POSTGRES_URL, uniqueName } from './test-app.ts';

/** A database on one engine that several "processes" (connections) can open in turn. */
export interface TestDatabase {
  engine: Engine;
  open(): Promise<OpenedDatabase>;
  /** Removes the file or schema. */
  destroy(): Promise<void>;
}

export function testDatabase(engine: Engine): TestDatabase {
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-jobs-'));
    return {
      engine,
      open: () => openDatabase({ kind: 'sqlite', file: path.join(dir, 'vitrine.sqlite') }),
      destroy: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = uniqueName('jobs');
  return {
    engine,
    open: () => openDatabase({ kind: 'postgres', url: POSTGRES_URL }, { schema }),
    destroy: () => dropPostgresSchema(schema),
  };
}
