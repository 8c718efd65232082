import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedDocs } from './reference-tables.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

describe('generated docs', () => {
  for (const [file, expected] of Object.entries(generatedDocs())) {
    it(`${file} is up to date (run \`make docs\` when this fails)`, () => {
      const actual = fs.readFileSync(path.join(root, file), 'utf8');
      expect(actual).toBe(expected);
    });
  }

  it('lists every variable with its form', () => {
    const config = generatedDocs()['docs/configuration.md']!;
    for (const name of ['VITRINE_PORT', 'DATABASE_URL', 'REDIS_URL', 'VITRINE_SECRET_KEY']) {
      expect(config).toContain(`\`${name}\``);
    }
  });
});
