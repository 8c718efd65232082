import fs from 'node:fs';
import path from 'node:path';
import { generatedDocs } from './reference-tables.ts';

// `make docs`: writes the generated reference documents into docs/.
const root = path.resolve(import.meta.dirname, '../../../..');
for (const [file, content] of Object.entries(generatedDocs())) {
  fs.writeFileSync(path.join(root, file), content);
  process.stdout.write(`wrote ${file}\n`);
}
