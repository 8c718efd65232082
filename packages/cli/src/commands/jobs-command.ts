import { idPattern, type Job } from '@vitrine/contract';
import type { Command } from 'commander';
import type { ApiClient } from '../api-client.ts';
import { type CliContext, clientOf, print, progressOf } from '../cli-context.ts';
import { CliError, EXIT } from '../exit-codes.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function checkJobId(id: string): void {
  if (!idPattern('job').test(id)) {
    throw new CliError(
      `Invalid job id "${id}": job ids look like job_ followed by 26 letters and digits`,
      EXIT.usage,
    );
  }
}

/** Polls a job until it completes or fails: every second at first, then up to every 5 s. */
export async function waitForJob(client: ApiClient, id: string, onPoll?: (job: Job) => void): Promise<Job> {
  let delay = 1000;
  for (;;) {
    const { body: job } = await client.call('getJob', { params: { id } });
    onPoll?.(job);
    if (job.status !== 'pending') return job;
    await sleep(delay);
    delay = Math.min(5000, Math.round(delay * 1.5));
  }
}

/** A failed job ends the command with the capture-failed exit code and the job's error. */
export function failIfFailed(job: Job): asserts job is Job & { status: 'completed' } {
  if (job.status === 'failed') {
    throw new CliError(`Job ${job.id} failed: ${job.error ?? 'no reason given'}`, EXIT.captureFailed);
  }
}

function describeJob(job: Job): string {
  const lines = [`Job:      ${job.id}`, `Status:   ${job.status}`, `Created:  ${job.created_at}`];
  if (job.completed_at) lines.push(`Finished: ${job.completed_at}`);
  if (job.result)
    lines.push(`Image:    ${job.result.url} (${job.result.width}x${job.result.height} ${job.result.format})`);
  if (job.error) lines.push(`Error:    ${job.error}`);
  if (job.webhook_url) lines.push(`Webhook:  ${job.webhook_url} (${job.webhook_status ?? 'none'})`);
  return lines.join('\n');
}

async function jobStatus(context: CliContext, id: string, options: { watch?: boolean; json?: boolean }) {
  checkJobId(id);
  const client = clientOf(context);
  let job: Job;
  if (options.watch) {
    const progress = progressOf(context, options.json);
    progress.phase(`Waiting for ${id}`);
    job = await waitForJob(client, id);
    if (job.status === 'completed') progress.done(`${id} completed`);
    else progress.fail(`${id} failed`);
  } else {
    job = (await client.call('getJob', { params: { id } })).body;
  }
  print(context, options.json ? job : describeJob(job));
  if (options.watch) failIfFailed(job);
}

export function addJobsCommand(program: Command, context: CliContext): void {
  const jobs = program.command('jobs').description('Asynchronous capture jobs');
  jobs
    .command('status')
    .description('Show a job; with --watch, wait until it completes or fails')
    .argument('<id>', 'the job id (job_...)')
    .option('--watch', 'poll until the job completes or fails (exit code 9 when it fails)')
    .option('--json', 'print JSON')
    .action((id: string, options: { watch?: boolean; json?: boolean }) => jobStatus(context, id, options));
}
