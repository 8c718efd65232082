import fs from 'node:fs';
import path from 'node:path';
import { type CaptureResult, captureRequestSchema, rawCaptureRequestSchema } from '@vitrine/contract';
import type { Command } from 'commander';
import type { ApiClient } from '../api-client.ts';
import {
  addFieldOptions,
  bodyFromOptions,
  type FieldFlag,
  fieldFlags,
  validateBody,
} from '../capture-flags.ts';
import { type CliContext, clientOf, print, progressOf } from '../cli-context.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import type { Progress } from '../progress.ts';
import { failIfFailed, waitForJob } from './jobs-command.ts';

/** A capture renders in the request: allow for a slow page plus queueing on the server. */
const CAPTURE_TIMEOUT_MS = 300_000;

export const CAPTURE_FLAGS: readonly FieldFlag[] = fieldFlags(captureRequestSchema);
export const RAW_FLAGS: readonly FieldFlag[] = fieldFlags(rawCaptureRequestSchema);

interface OutputOptions {
  output?: string;
  json?: boolean;
  open?: boolean;
  wait?: boolean;
  htmlFile?: string;
  cssFile?: string;
}

function readText(file: string, flag: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`Invalid ${flag}: cannot read ${file}`, EXIT.usage);
  }
}

/**
 * The request's target: the URL argument, or an HTML document (`--html`, or `--html-file`, with
 * `--css`/`--css-file`). Returns the fields to merge into the body and what to call the target.
 */
function targetOf(
  url: string | undefined,
  fields: Record<string, unknown>,
  options: OutputOptions,
): { target: Record<string, unknown>; label: string } {
  const target: Record<string, unknown> = {};
  if (options.htmlFile !== undefined) target.html = readText(options.htmlFile, '--html-file');
  if (options.cssFile !== undefined) target.css = readText(options.cssFile, '--css-file');
  const html = target.html ?? fields.html;
  if (url === undefined && html === undefined) {
    throw new CliError('Give the page to capture: a URL, or --html / --html-file', EXIT.usage);
  }
  if (url !== undefined) target.url = url;
  return { target, label: url ?? (options.htmlFile ? options.htmlFile : 'the HTML document') };
}

function summary(result: CaptureResult): string {
  const credits = `${result.credits_used} credit${result.credits_used === 1 ? '' : 's'}`;
  return `${result.id}: ${result.width}x${result.height} ${result.format}, rendered in ${(result.duration_ms / 1000).toFixed(1)} s on the server, ${credits}${result.cached ? ', from cache' : ''}`;
}

/** Saves the image (or streams it to stdout with `-o -`), prints the URL or JSON, opens it. */
async function deliver(
  context: CliContext,
  client: ApiClient,
  progress: Progress,
  result: CaptureResult,
  options: OutputOptions,
): Promise<void> {
  for (const warning of result.warnings) context.stderr.write(`warning: ${warning}\n`);
  let written: string | undefined;
  if (options.output) {
    progress.phase('Downloading the image');
    const { bytes } = await client.download(result.url);
    if (options.output === '-') {
      context.stdout.write(bytes);
      progress.done(`Wrote ${bytes.length} bytes to stdout`);
      return;
    }
    written = path.resolve(options.output);
    fs.writeFileSync(written, bytes);
    progress.done(`Saved ${options.output} (${Math.round(bytes.length / 1024)} KB)`);
  }
  print(context, options.json ? result : result.url);
  if (options.open && !(await context.open(written ?? result.url))) {
    context.stderr.write('Could not open a viewer on this machine.\n');
  }
}

async function capture(
  context: CliContext,
  target: string | undefined,
  options: OutputOptions & Record<string, unknown>,
) {
  const fields = bodyFromOptions(CAPTURE_FLAGS, options);
  if (options.wait) fields.async = true;
  const { target: given, label: url } = targetOf(target, fields, options);
  const body = validateBody(captureRequestSchema, { ...fields, ...given }, CAPTURE_FLAGS);
  const client = clientOf(context);
  const progress = progressOf(context, options.output === '-' && !context.stderr.isTTY);
  progress.phase(body.async ? `Queueing a capture of ${url}` : `Capturing ${url}`);
  let answer: Awaited<ReturnType<typeof client.call<'createCapture'>>>;
  try {
    answer = await client.call('createCapture', { body, timeoutMs: CAPTURE_TIMEOUT_MS });
  } catch (error) {
    progress.fail(`Capture of ${url} failed`);
    throw error;
  }
  if ('job_id' in answer.body) {
    const jobId = answer.body.job_id;
    progress.done(`Queued job ${jobId}`);
    if (!options.wait) {
      print(context, options.json ? answer.body : jobId);
      return;
    }
    progress.phase(`Waiting for ${jobId}`);
    const job = await waitForJob(client, jobId);
    if (job.status === 'failed') progress.fail(`Job ${jobId} failed`);
    failIfFailed(job);
    if (!job.result) throw new CliError(`Job ${jobId} completed without a result`, EXIT.unexpected);
    progress.done(`Captured ${summary(job.result)}`);
    return deliver(context, client, progress, job.result, options);
  }
  const result = answer.body;
  progress.done(`Captured ${summary(result)}`);
  return deliver(context, client, progress, result, options);
}

async function rawCapture(
  context: CliContext,
  target: string | undefined,
  options: OutputOptions & Record<string, unknown>,
) {
  const fields = bodyFromOptions(RAW_FLAGS, options);
  const { target: given, label: url } = targetOf(target, fields, options);
  const body = validateBody(rawCaptureRequestSchema, { ...fields, ...given }, RAW_FLAGS);
  const client = clientOf(context);
  const progress = progressOf(context, options.output === '-' && !context.stderr.isTTY);
  progress.phase(`Capturing ${url} (unstyled)`);
  try {
    const { body: result } = await client.call('createRawCapture', { body, timeoutMs: CAPTURE_TIMEOUT_MS });
    progress.done(`Captured ${summary(result)}`);
    return deliver(context, client, progress, result, options);
  } catch (error) {
    progress.fail(`Capture of ${url} failed`);
    throw error;
  }
}

export function addCaptureCommands(program: Command, context: CliContext): void {
  const captureCommand = program
    .command('capture')
    .description('Capture a page with styling (every capture field is a flag) and print its image URL')
    .argument('[url]', 'the page to capture (http or https; a bare host gets https://); or give --html')
    .option('-o, --output <file>', 'write the image to this file (- for stdout)')
    .option('--html-file <file>', 'render this HTML file instead of a URL (the html field)')
    .option('--css-file <file>', 'a stylesheet file added to the HTML document (the css field)')
    .option('--async', 'queue the capture and print the job id')
    .option('--wait', 'queue the capture, wait for the job, then deliver the image as usual')
    .option('--json', 'print the whole capture result as JSON instead of the URL')
    .option('--open', 'open the image (the file with -o, else the URL) when done');
  addFieldOptions(
    captureCommand,
    CAPTURE_FLAGS.filter((f) => f.flag !== '--async'),
  );
  captureCommand.action((url: string | undefined, options: OutputOptions & Record<string, unknown>) =>
    capture(context, url, options),
  );

  const rawCommand = program
    .command('raw')
    .description('Capture a page without styling (the screenshot alone) and print its image URL')
    .argument('[url]', 'the page to capture; or give --html')
    .option('-o, --output <file>', 'write the image to this file (- for stdout)')
    .option('--html-file <file>', 'render this HTML file instead of a URL (the html field)')
    .option('--css-file <file>', 'a stylesheet file added to the HTML document (the css field)')
    .option('--json', 'print the whole capture result as JSON instead of the URL')
    .option('--open', 'open the image when done');
  addFieldOptions(rawCommand, RAW_FLAGS);
  rawCommand.action((url: string | undefined, options: OutputOptions & Record<string, unknown>) =>
    rawCapture(context, url, options),
  );
}
