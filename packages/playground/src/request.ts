import { CAPTURE_DEFAULTS, MOTION_DEFAULTS } from '@vitrine/contract';

/**
 * The capture body the playground sends, and the same request written out for copying: only
 * the fields that differ from the contract's defaults are included, so what a user copies is
 * the smallest request that produces the preview.
 */
export type Body = Record<string, unknown>;

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function defaultAt(path: string[]): unknown {
  let value: unknown = CAPTURE_DEFAULTS;
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  return value;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0)
  );
}

/** Sets (or, for an empty or default value, removes) a field at `path`, returning a new body. */
export function setField(body: Body, path: string[], value: unknown): Body {
  const next: Body = structuredClone(body);
  let target = next;
  for (const key of path.slice(0, -1)) {
    target[key] = { ...((target[key] as Body | undefined) ?? {}) };
    target = target[key] as Body;
  }
  const last = path[path.length - 1]!;
  if (isEmpty(value) || sameValue(value, defaultAt(path))) delete target[last];
  else target[last] = value;
  if (path.length > 1 && isEmpty(next[path[0]!])) delete next[path[0]!];
  return next;
}

export function getField(body: Body, path: string[]): unknown {
  let value: unknown = body;
  for (const key of path) value = (value as Body | undefined)?.[key];
  return value;
}

/** The body without fields equal to their defaults (e.g. pasted or typed back to the default). */
export function minimalBody(body: Body): Body {
  let result: Body = {};
  for (const [key, value] of Object.entries(body)) {
    if ((key === 'output' || key === 'motion' || key === 'scene') && value && typeof value === 'object') {
      for (const [sub, subValue] of Object.entries(value as Body)) {
        result = setField(result, [key, sub], subValue);
      }
    } else result = setField(result, [key], value);
  }
  return result;
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

export function curlCommand(baseUrl: string, body: Body): string {
  return [
    `curl -sS -X POST ${shellQuote(`${baseUrl}/v1/capture`)}`,
    `  -H "Authorization: Bearer $VITRINE_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join(' \\\n');
}

function kebab(name: string): string {
  return name.replaceAll('_', '-');
}

/**
 * The `vitrine capture` command: the CLI derives its flags from the same schemas (`dark_mode`
 * is `--dark-mode`, `output.format` is `--format`, a viewport is `WxH`, lists repeat the flag,
 * objects are JSON).
 */
export function cliCommand(body: Body): string {
  const { url, ...fields } = body;
  const format =
    (fields.output as Body | undefined)?.format ??
    (fields.motion ? MOTION_DEFAULTS.format : CAPTURE_DEFAULTS.output.format);
  const outputFile = `capture.${String(format)}`;
  // Without a URL the page is the `html` field, given as a flag like any other.
  const parts = url === undefined ? ['vitrine capture'] : ['vitrine capture', shellQuote(String(url))];
  const flag = (name: string, value: unknown) => {
    if (value === true) parts.push(`--${kebab(name)}`);
    else if (value === false) parts.push(`--no-${kebab(name)}`);
    else if (Array.isArray(value))
      for (const item of value) {
        // Steps and cookies are objects: one JSON object a flag.
        const text = item && typeof item === 'object' ? JSON.stringify(item) : String(item);
        parts.push(`--${kebab(name)} ${shellQuote(text)}`);
      }
    else if (name === 'viewport' && value && typeof value === 'object') {
      const v = value as { width: number; height: number };
      parts.push(`--viewport ${v.width}x${v.height}`);
    } else if (value && typeof value === 'object')
      parts.push(`--${kebab(name)} ${shellQuote(JSON.stringify(value))}`);
    else parts.push(`--${kebab(name)} ${shellQuote(String(value))}`);
  };
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'output' && value && typeof value === 'object') {
      for (const [sub, subValue] of Object.entries(value as Body)) flag(sub, subValue);
    } else if (name === 'shots' && Array.isArray(value)) {
      // One `--shot` a shot, as JSON (the CLI also takes key=value pairs).
      for (const shot of value) parts.push(`--shot ${shellQuote(JSON.stringify(shot))}`);
    } else if (name === 'scene' && value && typeof value === 'object') {
      for (const [sub, subValue] of Object.entries(value as Body)) flag(`scene_${sub}`, subValue);
    } else if (name === 'motion' && value && typeof value === 'object') {
      // `--motion scroll --motion-duration 6`: the CLI's flags of the motion object.
      for (const [sub, subValue] of Object.entries(value as Body))
        flag(sub === 'type' ? 'motion' : `motion_${sub}`, subValue);
    } else flag(name, value);
  }
  parts.push(`-o ${shellQuote(outputFile)}`);
  return parts.join(' ');
}

export function fetchSnippet(baseUrl: string, body: Body): string {
  return `const response = await fetch('${baseUrl}/v1/capture', {
  method: 'POST',
  headers: {
    Authorization: \`Bearer \${process.env.VITRINE_API_KEY}\`,
    'Content-Type': 'application/json',
  },
  body: JSON.stringify(${JSON.stringify(body, null, 2).replaceAll('\n', '\n  ')}),
});
const capture = await response.json(); // capture.url is the image
`;
}

export function jsonBody(body: Body): string {
  return JSON.stringify(body, null, 2);
}
