import fs from 'node:fs';
import path from 'node:path';
import { captureRequestSchema } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { EXIT_CODE_MEANINGS } from '../exit-codes.ts';
import { renderCliReference } from './cli-reference.ts';

const FILE = path.resolve(import.meta.dirname, '../../../../docs/cli.md');

describe('docs/cli.md', () => {
  it('is up to date (run `make docs` when this fails)', () => {
    expect(fs.readFileSync(FILE, 'utf8')).toBe(renderCliReference());
  });

  it('documents every command, every capture field flag and every exit code', () => {
    const doc = renderCliReference();
    for (const command of [
      'login',
      'logout',
      'status',
      'capture',
      'raw',
      'jobs status',
      'backgrounds ls',
      'projects rotate-secret',
      'usage',
      'sign',
      'keys revoke',
      'mcp',
    ]) {
      expect(doc).toContain(`### vitrine ${command}\n`);
    }
    for (const field of Object.keys(captureRequestSchema.shape)) {
      if (['url', 'site', 'output'].includes(field)) continue;
      expect(doc, field).toContain(`\`--${field.replaceAll('_', '-')}`);
    }
    for (const { code, meaning } of EXIT_CODE_MEANINGS) expect(doc).toContain(`| ${code} | ${meaning} |`);
  });
});
