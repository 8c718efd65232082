import path from 'node:path';
import {
  BATCH_LIMITS,
  captureRequestSchema,
  LOOK_NAME_PATTERN,
  type REQUEST_FORMATS,
} from '@vitrine/contract';
import { isMap, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { z } from 'zod';

/** Keys of a shot that are `vitrine sync`'s own; every other key is a capture field. */
const SHOT_KEYS = ['name', 'look', 'path', 'dark_path'] as const;

/** Extension of an output path -> the capture's `output.format`. */
const EXTENSION_FORMATS: Record<string, (typeof REQUEST_FORMATS)[number]> = {
  '.png': 'png',
  '.webp': 'webp',
  '.jpg': 'jpg',
  '.jpeg': 'jpg',
  '.avif': 'avif',
  '.mp4': 'mp4',
  '.webm': 'webm',
  '.gif': 'gif',
};

const fields = z.record(z.string(), z.unknown());
const outputPath = z
  .string()
  .min(1)
  .max(400)
  .refine((p) => !path.isAbsolute(p) && !p.split(/[\\/]/).includes('..'), {
    message: 'must be a relative path inside the output folder (no leading / and no ..)',
  })
  .refine((p) => EXTENSION_FORMATS[path.extname(p).toLowerCase()] !== undefined, {
    message: `must end with an image or video extension: ${Object.keys(EXTENSION_FORMATS).join(', ')}`,
  });

/** The schema of `vitrine.yml` (docs/batches.md), checked before any request. */
export const syncFileSchema = z.strictObject({
  version: z.literal(1).optional(),
  output: z.string().min(1).max(400).optional(),
  defaults: fields.optional(),
  looks: z
    .record(z.string().regex(LOOK_NAME_PATTERN, 'a look name is 1-40 of a-z, 0-9, _ and -'), fields)
    .optional(),
  shots: z
    .array(
      z.looseObject({
        name: z.string().min(1).max(200).optional(),
        look: z.string().optional(),
        path: outputPath,
        dark_path: outputPath.optional(),
      }),
    )
    .min(1),
});

/** One image to keep up to date: a shot, or the dark half of a light/dark pair. */
export interface ShotRender {
  /** The output path, relative to the output folder (the manifest's key). */
  path: string;
  name: string;
  look: string | null;
  dark: boolean;
  /** A POST /v1/capture body without `async` (a batch item). */
  request: Record<string, unknown>;
  /** Where the shot is written in vitrine.yml, for messages. */
  line: number;
}

export interface SyncPlan {
  /** The output folder, absolute. */
  outputDir: string;
  renders: ShotRender[];
}

/** A problem in vitrine.yml, with its line (1-based) and column. */
export class SyncConfigError extends Error {
  readonly problems: { line: number; column: number; message: string }[];
  constructor(file: string, problems: { line: number; column: number; message: string }[]) {
    super(problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`).join('\n'));
    this.name = 'SyncConfigError';
    this.problems = problems;
  }
}

/**
 * Reads vitrine.yml: YAML errors and schema problems are reported with their line and column
 * (from the YAML parser's node ranges); every shot's request is checked against the capture
 * request schema here, so a typo is found before anything is sent.
 */
export function parseSyncFile(text: string, file: string): SyncPlan {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => lineCounter.linePos(offset);
  if (doc.errors.length > 0) {
    throw new SyncConfigError(
      file,
      doc.errors.map((error) => {
        const pos = at(error.pos[0]);
        return { line: pos.line, column: pos.col, message: error.message.split('\n')[0] ?? 'invalid YAML' };
      }),
    );
  }
  /** The line of the deepest node of `keys` that exists (the key's own line for a missing value). */
  const locate = (keys: readonly PropertyKey[]) => {
    let node: unknown = doc.contents;
    let found: Node | undefined = doc.contents ?? undefined;
    for (const key of keys) {
      if (isMap(node)) {
        const pair = node.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
        if (!pair) break;
        found = (pair.key as Node | null) ?? found;
        node = pair.value;
        if (pair.value && (pair.value as Node).range) found = pair.value as Node;
      } else if (isSeq(node) && typeof key === 'number') {
        const item = node.items[key] as Node | undefined;
        if (!item) break;
        found = item;
        node = item;
      } else break;
    }
    const pos = at(found?.range?.[0] ?? 0);
    return { line: pos.line, column: pos.col };
  };
  const json = doc.toJS() as unknown;
  const parsed = syncFileSchema.safeParse(json ?? {});
  if (!parsed.success) {
    throw new SyncConfigError(
      file,
      parsed.error.issues.map((issue) => {
        const keys =
          issue.code === 'unrecognized_keys'
            ? [...issue.path, ...((issue as { keys: string[] }).keys ?? [])]
            : issue.path;
        const where = issue.path.map(String).join('.');
        return {
          ...locate(keys),
          message: `${where ? `${where}: ` : ''}${issue.code === 'unrecognized_keys' ? `unknown key ${(issue as { keys: string[] }).keys.join(', ')}` : issue.message}`,
        };
      }),
    );
  }
  const config = parsed.data;
  const problems: { line: number; column: number; message: string }[] = [];
  const renders: ShotRender[] = [];
  const seen = new Map<string, number>();
  for (const [index, shot] of config.shots.entries()) {
    const own: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(shot)) {
      if (!(SHOT_KEYS as readonly string[]).includes(key)) own[key] = value;
    }
    if (shot.look !== undefined && !config.looks?.[shot.look]) {
      problems.push({
        ...locate(['shots', index, 'look']),
        message: `shots.${index}.look: no look named ${shot.look} (looks: ${Object.keys(config.looks ?? {}).join(', ') || 'none'})`,
      });
      continue;
    }
    const look = shot.look === undefined ? {} : (config.looks?.[shot.look] ?? {});
    const variants = [{ path: shot.path, dark: false, key: 'path' }];
    if (shot.dark_path !== undefined) variants.push({ path: shot.dark_path, dark: true, key: 'dark_path' });
    for (const variant of variants) {
      const previous = seen.get(variant.path);
      if (previous !== undefined) {
        problems.push({
          ...locate(['shots', index, variant.key]),
          message: `shots.${index}.${variant.key}: ${variant.path} is also written by the shot on line ${previous}`,
        });
        continue;
      }
      const line = locate(['shots', index]).line;
      seen.set(variant.path, line);
      const format = EXTENSION_FORMATS[path.extname(variant.path).toLowerCase()]!;
      const merged: Record<string, unknown> = { ...config.defaults, ...look, ...own };
      if (variant.dark) merged.dark_mode = true;
      // A shot renders because its page (or request) changed: the service's result cache would
      // hand back the image of the old page, so a sync renders afresh unless the file says otherwise.
      if (merged.cache_ttl === undefined) merged.cache_ttl = 0;
      const output = { ...((merged.output as Record<string, unknown> | undefined) ?? {}) };
      if (output.format !== undefined && output.format !== format) {
        problems.push({
          ...locate(['shots', index, variant.key]),
          message: `shots.${index}.${variant.key}: the extension says ${format} but output.format is ${String(output.format)}`,
        });
        continue;
      }
      merged.output = { ...output, format };
      const checked = captureRequestSchema.safeParse(merged);
      if (!checked.success || 'async' in merged || 'webhook_url' in merged) {
        const issues = checked.success
          ? [{ path: ['async' in merged ? 'async' : 'webhook_url'], message: 'not used by vitrine sync' }]
          : checked.error.issues.map((issue) => ({
              path:
                issue.code === 'unrecognized_keys'
                  ? [...issue.path, ...(issue as { keys: string[] }).keys]
                  : issue.path,
              message: issue.code === 'unrecognized_keys' ? 'unknown capture field' : issue.message,
            }));
        for (const issue of issues) {
          const field = issue.path.map(String).join('.');
          const top = String(issue.path[0] ?? '');
          // The field's own line: in the shot, else in its look, else in defaults.
          const source =
            top in own
              ? ['shots', index, ...issue.path]
              : top in look && shot.look !== undefined
                ? ['looks', shot.look, ...issue.path]
                : top in (config.defaults ?? {})
                  ? ['defaults', ...issue.path]
                  : ['shots', index];
          problems.push({
            ...locate(source),
            message: `shots.${index} (${variant.path}): ${field || 'the shot'}: ${issue.message}`,
          });
        }
        continue;
      }
      renders.push({
        path: variant.path,
        name: shot.name ?? variant.path,
        look: shot.look ?? null,
        dark: variant.dark,
        request: merged,
        line,
      });
    }
  }
  if (problems.length > 0) throw new SyncConfigError(file, problems);
  const dir = path.dirname(path.resolve(file));
  return { outputDir: path.resolve(dir, config.output ?? '.'), renders };
}

/** Batches a sync sends: at most BATCH_LIMITS.items renders each. */
export function chunksOf<T>(items: T[], size = BATCH_LIMITS.items): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
