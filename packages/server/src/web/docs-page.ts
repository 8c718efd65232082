import { escapeHtml } from './html.ts';

interface SchemaObject {
  type?: string | string[];
  properties?: Record<string, SchemaObject>;
  required?: string[];
  enum?: unknown[];
  description?: string;
  items?: SchemaObject;
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  $ref?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  pattern?: string;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    schema?: SchemaObject;
    description?: string;
  }[];
  requestBody?: { content?: Record<string, { schema?: SchemaObject }> };
  responses?: Record<string, { description?: string }>;
}

export interface OpenApiDocumentShape {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

function typeOf(schema: SchemaObject | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return schema.$ref.split('/').pop() ?? '';
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeOf).join(' or ');
  if (schema.type === 'array') return `array of ${typeOf(schema.items)}`;
  return Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
}

function constraints(schema: SchemaObject): string {
  const parts: string[] = [];
  if (schema.minimum !== undefined) parts.push(`min ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`max ${schema.maximum}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.pattern) parts.push(`pattern ${schema.pattern}`);
  return parts.join(', ');
}

function fieldsTable(schema: SchemaObject | undefined): string {
  const properties = schema?.properties;
  if (!properties || Object.keys(properties).length === 0) return '';
  const required = new Set(schema?.required ?? []);
  const rows = Object.entries(properties)
    .map(
      ([name, field]) =>
        `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? ' <b>required</b>' : ''}</td><td>${escapeHtml(
          typeOf(field),
        )}</td><td>${escapeHtml([field.description, constraints(field)].filter(Boolean).join('. '))}</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Notes</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function operationSection(method: string, path: string, op: Operation): string {
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code> (${escapeHtml(p.in)})${p.required ? ' <b>required</b>' : ''}</td><td>${escapeHtml(
          typeOf(p.schema),
        )}</td><td>${escapeHtml(p.description ?? p.schema?.description ?? '')}</td></tr>`,
    )
    .join('');
  const body = op.requestBody?.content?.['application/json']?.schema;
  const responses = Object.entries(op.responses ?? {})
    .map(([status, r]) => `<li><code>${escapeHtml(status)}</code> ${escapeHtml(r.description ?? '')}</li>`)
    .join('');
  const anchor = op.operationId ?? `${method}-${path}`;
  return `<section id="${escapeHtml(anchor)}">
<h3><span class="method">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(op.summary ?? '')}. ${escapeHtml(op.description ?? '')}</p>
${params ? `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>Type</th><th>Notes</th></tr></thead><tbody>${params}</tbody></table>` : ''}
${body ? `<h4>Request body</h4>${fieldsTable(body) || `<p>${escapeHtml(typeOf(body))}</p>`}` : ''}
<h4>Responses</h4><ul>${responses}</ul>
</section>`;
}

/** A readable API reference, rendered on the server from the OpenAPI document (no scripts). */
export function renderDocsPage(doc: OpenApiDocumentShape): string {
  const byTag = new Map<string, string[]>();
  const toc: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationSection(method, path, op)]);
      toc.push(
        `<li><a href="#${escapeHtml(op.operationId ?? '')}"><code>${escapeHtml(method.toUpperCase())} ${escapeHtml(path)}</code></a></li>`,
      );
    }
  }
  const sections = [...byTag].map(([tag, ops]) => `<h2>${escapeHtml(tag)}</h2>${ops.join('')}`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info.title)} reference</title>
<style>
body{font:15px/1.55 system-ui,-apple-system,Segoe UI,sans-serif;color:#1d2330;max-width:980px;margin:0 auto;padding:32px 20px}
h1{font-size:28px;margin:0 0 4px}h2{margin-top:40px;border-bottom:1px solid #e3e6ee;padding-bottom:6px}
h3{font-size:17px;margin:28px 0 6px}.method{display:inline-block;min-width:56px;font:600 12px/22px ui-monospace,monospace;background:#eef1ff;color:#3346c8;border-radius:4px;text-align:center}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f4f5f8;padding:1px 4px;border-radius:3px}
table{border-collapse:collapse;width:100%;font-size:14px;margin:6px 0}td,th{border-bottom:1px solid #eceef3;padding:6px 8px;text-align:left;vertical-align:top}
th{font-weight:600;color:#5a6275}ul{padding-left:20px}.muted{color:#5a6275}
</style></head><body>
<h1>${escapeHtml(doc.info.title)}</h1><p class="muted">Version ${escapeHtml(doc.info.version)}. ${escapeHtml(doc.info.description ?? '')}
Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1). Authenticate with <code>Authorization: Bearer &lt;API key&gt;</code>.</p>
<h2>Endpoints</h2><ul>${toc.join('')}</ul>${sections}
</body></html>`;
}
