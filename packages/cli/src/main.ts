#!/usr/bin/env node
import fs from 'node:fs';
import type { CliContext } from './cli-context.ts';
import { runCli } from './run-cli.ts';

// Entry point of the `vitrine` client: the real process, its streams and environment.
const version = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const context: CliContext = {
  env: process.env,
  version,
  stdout: process.stdout,
  stderr: process.stderr,
  async open(target) {
    try {
      const { default: open } = await import('open');
      const child = await open(target);
      child.on('error', () => undefined);
      return true;
    } catch {
      return false;
    }
  },
};

process.exitCode = await runCli(process.argv.slice(2), context);
