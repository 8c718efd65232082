#!/usr/bin/env node
// The `vitrine` command of the installed package. In a checkout it runs the TypeScript sources
// (Node strips their types); an installed package has only the compiled JavaScript, because
// Node strips no types inside node_modules.
import fs from 'node:fs';

const source = new URL('../src/main.ts', import.meta.url);
await import(fs.existsSync(source) ? source.href : new URL('../dist/main.js', import.meta.url).href);
