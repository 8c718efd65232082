import { readFileSync } from 'node:fs';
import {
  aiFieldsShape,
  asyncFieldsShape,
  backgroundFieldsShape,
  composeModeFieldsShape,
  deliveryFieldsShape,
  depthBlurFieldsShape,
  deviceFieldsShape,
  frameFieldsShape,
  motionSchema,
  outputSchema,
  perspectiveFieldsShape,
  SHOT_FIELDS,
  sceneFieldsShape,
  sceneSchema,
  shotSchema,
  targetFieldsShape,
  textOverlayFieldsShape,
  titleFieldsShape,
} from '@vitrine/contract';
import { type Command, Option } from 'commander';
import type { z } from 'zod';
import { CliError, EXIT } from './exit-codes.ts';

/**
 * Command-line flags derived from the contract's capture schemas: every field of the request
 * body becomes a flag (`dark_mode` -> `--dark-mode`), so a field added to the contract is a
 * flag without touching the CLI. Values are parsed by kind and the assembled body is validated
 * with the same schema the server uses.
 */

/** Interface.md's groups of capture fields, for the help text and the reference. */
const FIELD_GROUPS: readonly [string, Record<string, unknown>][] = [
  ['Target and browser', targetFieldsShape],
  ['Device frame', deviceFieldsShape],
  ['Background', backgroundFieldsShape],
  ['Frame geometry, border and shadow', frameFieldsShape],
  ['Perspective and camera', perspectiveFieldsShape],
  ['Depth blur', depthBlurFieldsShape],
  ['Title, subtitle, badge', titleFieldsShape],
  ['Free text overlay', textOverlayFieldsShape],
  ['AI assistance', aiFieldsShape],
  ['Output and delivery', { ...deliveryFieldsShape, ...composeModeFieldsShape, ...asyncFieldsShape }],
  ['Motion', { motion: motionSchema }],
  ['Scene (several shots in one image)', sceneFieldsShape],
];

/** Fields given as the positional argument rather than a flag. */
const POSITIONAL_FIELDS = new Set(['url', 'site']);

type Kind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'list'
  | 'json-list'
  | 'viewport'
  | 'number-or-string'
  | 'json'
  | 'shot'
  | 'shots-file';

export interface FieldFlag {
  /** Path of the field in the request body, e.g. ['output', 'format']. */
  path: string[];
  /** `--dark-mode` */
  flag: string;
  kind: Kind;
  group: string;
  description: string;
  choices?: string[];
}

interface ZodInternals {
  _zod: {
    def: { type: string; innerType?: unknown; values?: unknown[]; options?: unknown[]; element?: unknown };
  };
  description?: string;
  minValue?: number | null;
  maxValue?: number | null;
  isInt?: boolean;
  options?: string[];
  shape?: Record<string, unknown>;
}

/** The field's documented default (the contract's CAPTURE_DEFAULTS, published in its metadata). */
function documentedDefault(schema: unknown): unknown {
  return (schema as { meta?: () => Record<string, unknown> | undefined }).meta?.()?.default;
}

function unwrap(schema: unknown): { inner: ZodInternals; description: string | undefined } {
  let current = schema as ZodInternals;
  let description = current.description;
  while (['optional', 'default', 'nullable'].includes(current._zod.def.type)) {
    current = current._zod.def.innerType as ZodInternals;
    description ??= current.description;
  }
  return { inner: current, description };
}

function kebab(name: string): string {
  return name.replaceAll('_', '-');
}

function bounds(inner: ZodInternals): string {
  const min = inner.minValue;
  const max = inner.maxValue;
  const finite = (n: number | null | undefined) => n !== null && n !== undefined && Number.isFinite(n);
  const range = finite(min) && finite(max) ? `${min}..${max}` : '';
  return [inner.isInt ? 'integer' : 'number', range].filter(Boolean).join(' ');
}

function describeField(name: string, group: string, schema: unknown, pathPrefix: string[] = []): FieldFlag {
  const { inner, description } = unwrap(schema);
  const type = inner._zod.def.type;
  const field = [...pathPrefix, name].join('.');
  const base = { path: [...pathPrefix, name], flag: `--${kebab(name)}`, group };
  const fallback = documentedDefault(schema);
  const shown =
    fallback === undefined
      ? ''
      : typeof fallback === 'object' && fallback !== null && 'width' in fallback && 'height' in fallback
        ? `; default ${fallback.width}x${fallback.height}`
        : `; default ${typeof fallback === 'string' ? fallback : JSON.stringify(fallback)}`;
  const about = `${description ? `${field}: ${description}` : `Sets ${field}`}${shown}`;
  if (type === 'enum') return { ...base, kind: 'enum', choices: inner.options ?? [], description: about };
  if (type === 'literal') {
    const values = (inner._zod.def.values ?? []).map(String);
    return { ...base, kind: 'enum', choices: values, description: about };
  }
  if (type === 'number') return { ...base, kind: 'number', description: `${about} (${bounds(inner)})` };
  if (type === 'boolean') return { ...base, kind: 'boolean', description: `${about} (true)` };
  if (type === 'string') return { ...base, kind: 'string', description: about };
  if (type === 'array' && unwrap(inner._zod.def.element).inner._zod.def.type !== 'string') {
    // A list of objects (`actions`, `cookies`): each flag a JSON object, or an array of them.
    return { ...base, kind: 'json-list', description: `${about} (JSON; repeat the flag for several)` };
  }
  if (type === 'array')
    return { ...base, kind: 'list', description: `${about} (repeat the flag for several)` };
  if (name === 'viewport' && type === 'object') {
    return { ...base, kind: 'viewport', description: `${about} (WIDTHxHEIGHT, e.g. 1440x900)` };
  }
  if (type === 'union') return { ...base, kind: 'number-or-string', description: about };
  return { ...base, kind: 'json', description: `${about} (JSON)` };
}

/** Every field of `schema` as a flag; `output.*` fields become `--format`, `--width`, ... */
export function fieldFlags(schema: z.ZodObject): FieldFlag[] {
  const flags: FieldFlag[] = [];
  for (const [name, field] of Object.entries(schema.shape)) {
    if (POSITIONAL_FIELDS.has(name)) continue;
    const group = FIELD_GROUPS.find(([, shape]) => name in shape)?.[0] ?? 'Other fields';
    if (name === 'output') {
      for (const [sub, subField] of Object.entries(outputSchema.shape)) {
        flags.push(describeField(sub, group, subField, ['output']));
      }
      continue;
    }
    if (name === 'motion') {
      // `--motion scroll --motion-duration 6 ...`: the type is the flag itself.
      for (const [sub, subField] of Object.entries(motionSchema.shape)) {
        const flag = describeField(sub, 'Motion', subField, ['motion']);
        flags.push({ ...flag, flag: sub === 'type' ? '--motion' : `--motion-${kebab(sub)}` });
      }
      continue;
    }
    if (name === 'scene') {
      // `--scene-layout fan --scene-spacing 32`
      for (const [sub, subField] of Object.entries(sceneSchema.shape)) {
        const flag = describeField(sub, group, subField, ['scene']);
        flags.push({ ...flag, flag: `--scene-${kebab(sub)}` });
      }
      continue;
    }
    if (name === 'shots') {
      // `--shot url=...,device=iphone-16` repeated, or `--shots shots.json` (a JSON array of shots).
      flags.push({
        path: ['shots'],
        flag: '--shot',
        kind: 'shot',
        group,
        description: `One shot of a scene, as key=value pairs separated by commas (${SHOT_FIELDS.join(', ')}; viewport as WIDTHxHEIGHT) or a JSON object; repeat for each shot (2 to 6)`,
      });
      flags.push({
        path: ['shots'],
        flag: '--shots',
        kind: 'shots-file',
        group,
        description:
          'A JSON file with the shots (an array of shot objects); --shot flags are added after them',
      });
      continue;
    }
    flags.push(describeField(name, group, field));
  }
  return flags;
}

/** A shot field's value from its text in `--shot key=value,...`, by the kind of its schema. */
function shotValue(key: string, text: string): unknown {
  const schema = (shotSchema.shape as Record<string, unknown>)[key];
  const kind = describeField(key, '', schema).kind;
  const flag = {
    path: ['shots', key],
    flag: `--shot ${key}=`,
    kind,
    group: '',
    description: '',
  } as FieldFlag;
  if (kind === 'boolean') {
    if (text !== 'true' && text !== 'false')
      throw new CliError(`Invalid --shot ${key}: expected true or false, got "${text}"`, EXIT.usage);
    return text === 'true';
  }
  if (kind === 'list') return [text];
  return parseValue(flag, text);
}

/** One `--shot`: a JSON object, or `key=value` pairs (a value may hold commas unless a field name follows). */
export function parseShot(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed) as Record<string, unknown>;
    } catch {
      throw new CliError(
        `Invalid --shot: expected a JSON object or key=value pairs, got "${text}"`,
        EXIT.usage,
      );
    }
  }
  const shot: Record<string, unknown> = {};
  // A comma starts the next pair only before a shot field's name: a URL keeps its own commas.
  const next = new RegExp(`,(?=\\s*(?:${SHOT_FIELDS.join('|')})=)`);
  for (const pair of trimmed.split(next)) {
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    if (at < 1 || !(SHOT_FIELDS as readonly string[]).includes(key)) {
      throw new CliError(
        `Invalid --shot: "${pair}" is not one of ${SHOT_FIELDS.map((f) => `${f}=`).join(', ')}`,
        EXIT.usage,
      );
    }
    shot[key] = shotValue(key, pair.slice(at + 1).trim());
  }
  return shot;
}

/** `--shots file.json`: an array of shots (or `{ "shots": [...] }`). */
function readShotsFile(path: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(
      `Invalid --shots: cannot read a JSON file at ${path} (${(error as Error).message})`,
      EXIT.usage,
    );
  }
  const list = Array.isArray(value) ? value : (value as { shots?: unknown })?.shots;
  if (!Array.isArray(list))
    throw new CliError(`Invalid --shots: ${path} holds no array of shots`, EXIT.usage);
  return list;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Adds the flags to a command, grouped in its help by interface.md's sections. */
export function addFieldOptions(command: Command, flags: readonly FieldFlag[]): void {
  for (const flag of flags) {
    if (flag.kind === 'boolean') {
      const group = `${flag.group}:`;
      command.addOption(new Option(flag.flag, flag.description).helpGroup(group));
      command.addOption(
        new Option(`--no-${flag.flag.slice(2)}`, `${flag.path.join('.')} (false)`).helpGroup(group),
      );
      continue;
    }
    const placeholder =
      flag.kind === 'viewport'
        ? '<WxH>'
        : flag.kind === 'list'
          ? '<value>'
          : flag.kind === 'json-list'
            ? '<json>'
            : `<${flag.kind === 'number' ? 'n' : 'value'}>`;
    const option = new Option(`${flag.flag} ${placeholder}`, flag.description).helpGroup(`${flag.group}:`);
    if (flag.choices) option.choices(flag.choices);
    if (flag.kind === 'list' || flag.kind === 'json-list' || flag.kind === 'shot') option.argParser(collect);
    command.addOption(option);
  }
}

function attributeOf(flag: FieldFlag): string {
  return flag.flag.slice(2).replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function parseValue(flag: FieldFlag, raw: unknown): unknown {
  if (flag.kind === 'boolean' || flag.kind === 'list') return raw;
  if (flag.kind === 'json-list') {
    return (raw as string[]).flatMap((text) => {
      try {
        const value: unknown = JSON.parse(text);
        return Array.isArray(value) ? value : [value];
      } catch {
        throw new CliError(`Invalid ${flag.flag}: expected a JSON object, got "${text}"`, EXIT.usage);
      }
    });
  }
  const text = String(raw);
  const number = () => {
    const value = text.trim() === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(value))
      throw new CliError(`Invalid ${flag.flag}: expected a number, got "${text}"`, EXIT.usage);
    return value;
  };
  switch (flag.kind) {
    case 'number':
      return number();
    case 'enum':
      return flag.choices?.every((c) => /^-?\d+$/.test(c)) ? number() : text;
    case 'viewport': {
      const match = /^(\d{1,5})x(\d{1,5})$/i.exec(text.trim());
      if (!match)
        throw new CliError(
          `Invalid ${flag.flag}: expected WIDTHxHEIGHT like 1440x900, got "${text}"`,
          EXIT.usage,
        );
      return { width: Number(match[1]), height: Number(match[2]) };
    }
    case 'number-or-string':
      return /^\d+$/.test(text) ? Number(text) : text;
    case 'json':
      try {
        return JSON.parse(text);
      } catch {
        throw new CliError(`Invalid ${flag.flag}: expected JSON, got "${text}"`, EXIT.usage);
      }
    default:
      return text;
  }
}

/** The request body from parsed commander options (only the flags that were given). */
export function bodyFromOptions(
  flags: readonly FieldFlag[],
  options: Record<string, unknown>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const flag of flags) {
    const raw = options[attributeOf(flag)];
    if (raw === undefined) continue;
    if (flag.kind === 'shot' || flag.kind === 'shots-file') {
      // The file's shots first, then each --shot, in order.
      const shots = flag.kind === 'shot' ? (raw as string[]).map(parseShot) : readShotsFile(String(raw));
      body.shots =
        flag.kind === 'shot'
          ? [...((body.shots as unknown[]) ?? []), ...shots]
          : [...shots, ...((body.shots as unknown[]) ?? [])];
      continue;
    }
    let target = body;
    for (const key of flag.path.slice(0, -1)) {
      target[key] ??= {};
      target = target[key] as Record<string, unknown>;
    }
    target[flag.path[flag.path.length - 1]!] = parseValue(flag, raw);
  }
  return body;
}

/** Validates a body with the contract's schema; the first problem names the flag, not the field. */
export function validateBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  flags: readonly FieldFlag[],
): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.map(String);
    const flag =
      flags.find((f) => f.path.join('.') === path.join('.')) ?? flags.find((f) => f.path[0] === path[0]);
    const name = flag?.flag ?? (path.length > 0 ? path.join('.') : 'the request');
    return `Invalid ${name}: ${issue.message}`;
  });
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : '';
  throw new CliError(`${problems[0]}${more}`, EXIT.usage);
}
