import { PassThrough } from 'node:stream';
import type { CliContext } from '../../packages/cli/src/cli-context.ts';
import { runCli } from '../../packages/cli/src/run-cli.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function collector(): { stream: NodeJS.WriteStream; text(): string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
  return {
    stream: stream as unknown as NodeJS.WriteStream,
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

/**
 * Starts `vitrine <args>` in this process (the same program and error handling as the binary,
 * without a Node start-up per command), with its own environment; output can be read while it
 * runs (e.g. the code `vitrine login` prints).
 */
export function startVitrine(
  args: string[],
  env: Record<string, string | undefined>,
): { done: Promise<CliRun>; stdout(): string; stderr(): string } {
  const stdout = collector();
  const stderr = collector();
  const context: CliContext = {
    env,
    version: '0.0.0-test',
    stdout: stdout.stream,
    stderr: stderr.stream,
    open: async () => false,
  };
  const done = runCli(args, context).then(async (code) => {
    await new Promise((resolve) => setImmediate(resolve));
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  });
  return { done, stdout: stdout.text, stderr: stderr.text };
}

export function runVitrine(args: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  return startVitrine(args, env).done;
}
