import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Batch, type BatchRequest, batchRequestSchema } from '@vitrine/contract';
import type { Command } from 'commander';
import type { ApiClient } from '../api-client.ts';
import { type CliContext, clientOf, print, progressOf } from '../cli-context.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import type { Progress } from '../progress.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Submits a batch under an idempotency key (so the transport's own retries of a 429 or 503 can
 * never start a second one) and returns it.
 */
export async function submitBatch(
  client: ApiClient,
  body: BatchRequest,
  idempotencyKey: string = crypto.randomUUID(),
): Promise<Batch> {
  const { body: batch } = await client.call('createBatch', {
    body,
    headers: { 'idempotency-key': idempotencyKey },
    timeoutMs: 120_000,
  });
  return batch;
}

/** Polls a batch until its last render has ended, showing the counts: every second, then up to 3 s. */
export async function waitForBatch(client: ApiClient, id: string, progress: Progress): Promise<Batch> {
  let delay = 1000;
  for (;;) {
    const { body: batch } = await client.call('getBatch', { params: { id } });
    progress.counts({ done: batch.counts.completed, failed: batch.counts.failed, total: batch.counts.total });
    if (batch.status === 'completed') return batch;
    await sleep(delay);
    delay = Math.min(3000, Math.round(delay * 1.5));
  }
}

function readBatchFile(file: string): BatchRequest {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`Cannot read ${file}`, EXIT.usage);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file} is not valid JSON: ${(error as Error).message}`, EXIT.usage);
  }
  const parsed = batchRequestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('')
      .replace(/^\./, '');
    throw new CliError(`Invalid ${file}: ${where || 'the body'}: ${issue.message}`, EXIT.usage);
  }
  return parsed.data;
}

/** A render's file name in `--output-dir`: item index, look, and the format. */
function fileNameOf(render: Batch['renders'][number]): string {
  const look = render.look ? `-${render.look}` : '';
  return `${String(render.index).padStart(3, '0')}${look}.${render.result?.format ?? 'png'}`;
}

async function batchCommand(
  context: CliContext,
  file: string,
  options: { idempotencyKey?: string; outputDir?: string; json?: boolean; wait: boolean },
) {
  const body = readBatchFile(file);
  const client = clientOf(context);
  const progress = progressOf(context, options.json);
  progress.phase(`Submitting ${body.items.length} items from ${file}`);
  let batch: Batch;
  try {
    batch = await submitBatch(client, body, options.idempotencyKey);
  } catch (error) {
    progress.fail('The batch was refused');
    throw error;
  }
  progress.done(
    `Batch ${batch.id}: ${batch.counts.total} renders, ${batch.credits_reserved} credits reserved`,
  );
  if (!options.wait) {
    print(context, options.json ? batch : batch.id);
    return;
  }
  progress.phase(`Rendering ${batch.id}`);
  batch = await waitForBatch(client, batch.id, progress);
  progress.done(
    `Batch ${batch.id} ended: ${batch.counts.completed} completed, ${batch.counts.failed} failed`,
  );
  if (options.outputDir) {
    fs.mkdirSync(options.outputDir, { recursive: true });
    for (const render of batch.renders) {
      if (!render.result) continue;
      const { bytes } = await client.download(render.result.url);
      fs.writeFileSync(path.join(options.outputDir, fileNameOf(render)), bytes);
    }
    progress.note(`Saved ${batch.counts.completed} images in ${options.outputDir}`);
  }
  if (options.json) print(context, batch);
  else {
    for (const render of batch.renders) {
      const look = render.look ? ` [${render.look}]` : '';
      print(
        context,
        `${render.index}${look} ${render.url}: ${render.result ? render.result.url : `failed: ${render.error ?? 'no reason given'}`}`,
      );
    }
  }
  if (batch.counts.failed > 0) {
    throw new CliError(
      `${batch.counts.failed} of ${batch.counts.total} renders failed (their credits were refunded)`,
      EXIT.captureFailed,
    );
  }
}

export function addBatchCommand(program: Command, context: CliContext): void {
  program
    .command('batch')
    .description(
      'Submit a batch (a POST /v1/batch body in a JSON file), show its progress, print each render (exit code 9 when one failed)',
    )
    .argument('<file>', 'JSON file: {"items": [...], "defaults": {...}, "looks": {...}, "webhook_url": ...}')
    .option('--idempotency-key <key>', 'send this Idempotency-Key (default: a new random one per run)')
    .option('--output-dir <dir>', 'download every image into this folder (NNN[-look].png)')
    .option('--no-wait', 'print the batch id and return without waiting')
    .option('--json', 'print the batch as JSON')
    .action(
      (
        file: string,
        options: { idempotencyKey?: string; outputDir?: string; json?: boolean; wait: boolean },
      ) => batchCommand(context, file, options),
    );
}
