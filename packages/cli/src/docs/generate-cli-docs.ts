import fs from 'node:fs';
import path from 'node:path';
import { renderCliReference } from './cli-reference.ts';

// `make docs`: writes docs/cli.md from the command definitions.
const file = path.resolve(import.meta.dirname, '../../../../docs/cli.md');
fs.writeFileSync(file, renderCliReference());
process.stdout.write('wrote docs/cli.md\n');
