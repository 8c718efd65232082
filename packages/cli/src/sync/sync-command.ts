import fs from 'node:fs';
import path from 'node:path';
import { type Batch, stableJson } from '@vitrine/contract';
import type { Command } from 'commander';
import { type CliContext, clientOf, print, progressOf, userAgent } from '../cli-context.ts';
import { submitBatch, waitForBatch } from '../commands/batch-command.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { pageHashOf, pageUrlOf, sha256 } from './page-hash.ts';
import { chunksOf, parseSyncFile, type ShotRender, SyncConfigError } from './sync-config.ts';

export const MANIFEST_NAME = 'vitrine-manifest.json';

/** What the manifest keeps per output path: enough to tell whether the shot is current. */
export interface ManifestEntry {
  name: string;
  url: string | null;
  look: string | null;
  dark: boolean;
  /** SHA-256 of the request (stable JSON) and of the page: the shot is current while both match. */
  request_hash: string;
  page_hash: string;
  capture_id: string;
  image_url: string;
  width: number;
  height: number;
  rendered_at: string;
}

export interface Manifest {
  version: 1;
  shots: Record<string, ManifestEntry>;
}

function readManifest(file: string): Manifest {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    if (parsed.version === 1 && typeof parsed.shots === 'object' && parsed.shots !== null) return parsed;
  } catch {
    // No manifest yet (or a broken one): every shot is stale.
  }
  return { version: 1, shots: {} };
}

/** What identifies a render's page for hashing: its URL, or its html document. */
function pageIdOf(render: ShotRender): string {
  const { request } = render;
  return stableJson({ url: pageUrlOf(request), html: request.html, css: request.css });
}

/** Hashes every page once (4 at a time), however many shots show it. */
async function pageHashes(renders: ShotRender[], agent: string): Promise<Map<ShotRender, string>> {
  const firstOf = new Map<string, ShotRender>();
  for (const render of renders) if (!firstOf.has(pageIdOf(render))) firstOf.set(pageIdOf(render), render);
  const queue = [...firstOf.keys()];
  const results = new Map<string, string>();
  const workers = Array.from({ length: 4 }, async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
      results.set(key, await pageHashOf(firstOf.get(key)!.request, agent));
    }
  });
  await Promise.all(workers);
  return new Map(renders.map((render) => [render, results.get(pageIdOf(render))!]));
}

async function sync(
  context: CliContext,
  options: { config: string; check?: boolean; force?: boolean; json?: boolean },
) {
  let text: string;
  try {
    text = fs.readFileSync(options.config, 'utf8');
  } catch {
    throw new CliError(`Cannot read ${options.config} (give another file with --config)`, EXIT.usage);
  }
  let plan: ReturnType<typeof parseSyncFile>;
  try {
    plan = parseSyncFile(text, options.config);
  } catch (error) {
    if (error instanceof SyncConfigError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
  const manifestFile = path.join(plan.outputDir, MANIFEST_NAME);
  const manifest = readManifest(manifestFile);
  const progress = progressOf(context, options.json);
  progress.phase(`Checking ${plan.renders.length} shots`);
  const hashes = await pageHashes(plan.renders, userAgent(context));
  const stale = plan.renders.filter((render) => {
    const entry = manifest.shots[render.path];
    return (
      options.force === true ||
      !entry ||
      entry.request_hash !== sha256(stableJson(render.request)) ||
      entry.page_hash !== hashes.get(render) ||
      !fs.existsSync(path.join(plan.outputDir, render.path))
    );
  });
  progress.done(`${stale.length} of ${plan.renders.length} shots to render`);
  if (options.check) {
    for (const render of stale) print(context, `stale: ${render.path} (${render.name}, line ${render.line})`);
    if (stale.length > 0) {
      throw new CliError(
        `${stale.length} of ${plan.renders.length} shots are stale: run vitrine sync`,
        EXIT.stale,
      );
    }
    print(context, `All ${plan.renders.length} shots are up to date`);
    return;
  }
  const shots: Record<string, ManifestEntry> = {};
  // Every current shot keeps its entry until it renders anew: a failed shot keeps its old one
  // (and its old file), so it is still stale next time.
  for (const render of plan.renders) {
    const entry = manifest.shots[render.path];
    if (entry) shots[render.path] = entry;
  }
  const failures: string[] = [];
  if (stale.length > 0) {
    const client = clientOf(context);
    for (const chunk of chunksOf(stale)) {
      progress.phase(`Rendering ${chunk.length} shots`);
      let batch: Batch = await submitBatch(client, { items: chunk.map((render) => render.request) });
      batch = await waitForBatch(client, batch.id, progress);
      progress.done(`Batch ${batch.id}: ${batch.counts.completed} rendered, ${batch.counts.failed} failed`);
      for (const entry of batch.renders) {
        const render = chunk[entry.index]!;
        if (!entry.result) {
          failures.push(`${render.path} (line ${render.line}): ${entry.error ?? 'failed'}`);
          continue;
        }
        const { bytes } = await client.download(entry.result.url);
        const target = path.join(plan.outputDir, render.path);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, bytes);
        shots[render.path] = {
          name: render.name,
          url: pageUrlOf(render.request),
          look: render.look,
          dark: render.dark,
          request_hash: sha256(stableJson(render.request)),
          page_hash: hashes.get(render)!,
          capture_id: entry.result.id,
          image_url: entry.result.url,
          width: entry.result.width,
          height: entry.result.height,
          rendered_at: entry.result.created_at,
        };
        if (!options.json) print(context, `rendered: ${render.path}`);
      }
    }
  }
  fs.mkdirSync(plan.outputDir, { recursive: true });
  fs.writeFileSync(manifestFile, `${JSON.stringify({ version: 1, shots } satisfies Manifest, null, 2)}\n`);
  if (options.json) {
    print(context, {
      rendered: stale
        .filter((r) => shots[r.path] && !failures.some((f) => f.startsWith(`${r.path} `)))
        .map((r) => r.path),
      unchanged: plan.renders.filter((r) => !stale.includes(r)).map((r) => r.path),
      failed: failures,
    });
  }
  if (failures.length > 0) {
    for (const failure of failures) context.stderr.write(`failed: ${failure}\n`);
    throw new CliError(`${failures.length} of ${stale.length} shots failed`, EXIT.captureFailed);
  }
  if (!options.json)
    print(context, `${stale.length} rendered, ${plan.renders.length - stale.length} unchanged`);
}

export function addSyncCommand(program: Command, context: CliContext): void {
  program
    .command('sync')
    .description(
      'Keep a folder of screenshots up to date from vitrine.yml: render (in batches) only the shots whose request or page changed, write a manifest; exit code 9 when a shot failed',
    )
    .option('-c, --config <file>', 'the shots file', 'vitrine.yml')
    .option('--check', 'only report stale shots (exit code 14 when there are any); renders nothing')
    .option('--force', 'render every shot, changed or not')
    .option('--json', 'print what was rendered, unchanged and failed as JSON')
    .action((options: { config: string; check?: boolean; force?: boolean; json?: boolean }) =>
      sync(context, options),
    );
}
