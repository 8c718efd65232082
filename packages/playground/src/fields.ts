import {
  aiFieldsShape,
  backgroundFieldsShape,
  CAPTURE_DEFAULTS,
  composeModeFieldsShape,
  deliveryFieldsShape,
  depthBlurFieldsShape,
  deviceFieldsShape,
  frameFieldsShape,
  motionSchema,
  perspectiveFieldsShape,
  sceneSchema,
  targetFieldsShape,
  textOverlayFieldsShape,
  titleFieldsShape,
} from '@vitrine/contract';
import { z } from 'zod';

/**
 * The playground's controls, generated from the contract's capture schemas: each field's JSON
 * Schema (type, enum, range, description, documented default) picks its control, so a field
 * added to the contract shows up here without hand-written UI. Groups follow interface.md.
 */
export type ControlKind =
  | 'text'
  | 'color'
  | 'number'
  | 'slider'
  | 'boolean'
  | 'chips'
  | 'select'
  | 'list'
  | 'viewport'
  | 'code'
  | 'json';

export interface FieldControl {
  /** Path in the request body, e.g. ['output', 'format']. */
  path: string[];
  name: string;
  kind: ControlKind;
  description: string;
  options?: (string | number)[];
  min?: number;
  max?: number;
  step?: number;
  /** The contract's default (CAPTURE_DEFAULTS), shown as the control's resting value. */
  defaultValue?: unknown;
}

export interface FieldGroup {
  id: string;
  title: string;
  fields: FieldControl[];
}

/** Fields the playground does not offer: it picks the project itself and never queues a preview. */
const NOT_CONTROLS = new Set(['url', 'site', 'project_id', 'async', 'webhook_url']);

/** Fields that hold a document or a stylesheet: a multi-line editor rather than one line. */
const CODE_FIELDS = new Set(['html', 'css', 'inject_css']);

/** Enums with up to this many values are chips (presets at a glance); longer ones a select. */
const MAX_CHIPS = 8;

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

const GROUPS: readonly [string, string, Record<string, z.ZodType>][] = [
  ['target', 'Target and browser', targetFieldsShape],
  ['device', 'Device frame', deviceFieldsShape],
  ['background', 'Background', backgroundFieldsShape],
  ['frame', 'Geometry, border and shadow', frameFieldsShape],
  ['camera', 'Perspective and camera', perspectiveFieldsShape],
  ['depth', 'Depth blur', depthBlurFieldsShape],
  ['titles', 'Title, subtitle, badge', titleFieldsShape],
  ['text', 'Free text overlay', textOverlayFieldsShape],
  ['ai', 'AI assistance', aiFieldsShape],
  ['output', 'Output', { ...deliveryFieldsShape, ...composeModeFieldsShape }],
  ['motion', 'Motion (video)', { motion: motionSchema }],
  // `shots` has an editor of its own (main.tsx); the scene's arrangement is generated like motion.
  ['scene', 'Scene (several shots)', { scene: sceneSchema }],
];

function contractDefault(path: string[]): unknown {
  let value: unknown = CAPTURE_DEFAULTS;
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  return value;
}

function enumValues(schema: JsonSchema): (string | number)[] | undefined {
  if (schema.enum) return schema.enum as (string | number)[];
  if (schema.const !== undefined) return [schema.const as string | number];
  if (schema.anyOf?.every((s) => s.const !== undefined || s.enum)) {
    return schema.anyOf.flatMap((s) => enumValues(s) ?? []);
  }
  return undefined;
}

export function controlFor(path: string[], schema: JsonSchema): FieldControl {
  const name = path[path.length - 1]!;
  const base = {
    path,
    name,
    description: schema.description ?? '',
    defaultValue: contractDefault(path) ?? schema.default,
  };
  const options = enumValues(schema);
  if (options) {
    // Presets are chips whatever their number: picking one is the point of the field.
    const chips = options.length <= MAX_CHIPS || name.endsWith('_preset');
    return { ...base, kind: chips ? 'chips' : 'select', options };
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (name === 'viewport') return { ...base, kind: 'viewport' };
  if (type === 'boolean') return { ...base, kind: 'boolean' };
  if (type === 'number' || type === 'integer') {
    const step = type === 'integer' ? 1 : (schema.maximum ?? 1) - (schema.minimum ?? 0) <= 2 ? 0.01 : 0.1;
    const ranged = schema.minimum !== undefined && schema.maximum !== undefined;
    return {
      ...base,
      kind: ranged && schema.maximum! - schema.minimum! <= 10_000 ? 'slider' : 'number',
      min: schema.minimum,
      max: schema.maximum,
      step,
    };
  }
  if (type === 'array' && schema.items?.type === 'string') return { ...base, kind: 'list' };
  if (type === 'string' && CODE_FIELDS.has(name)) return { ...base, kind: 'code' };
  if (type === 'string') return { ...base, kind: /color$/.test(name) ? 'color' : 'text' };
  return { ...base, kind: 'json' };
}

/** Every styling field of the capture body as a control, grouped as interface.md groups them. */
export function buildFieldGroups(): FieldGroup[] {
  return GROUPS.map(([id, title, shape]) => {
    const json = z.toJSONSchema(z.object(shape), { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    const fields: FieldControl[] = [];
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      if (NOT_CONTROLS.has(name)) continue;
      if (name === 'output' || name === 'motion' || name === 'scene') {
        // A named schema (`motion`) is a $ref into the document's $defs.
        const own = schema.$ref ? (json.$defs?.[schema.$ref.split('/').pop() ?? ''] ?? {}) : schema;
        for (const [sub, subSchema] of Object.entries(own.properties ?? {})) {
          fields.push(controlFor([name, sub], subSchema));
        }
        continue;
      }
      fields.push(controlFor([name], schema));
    }
    return { id, title, fields };
  }).filter((group) => group.fields.length > 0);
}
