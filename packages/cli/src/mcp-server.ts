import crypto from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  BACKGROUND_GROUPS,
  BACKGROUND_THEMES,
  type Batch,
  batchParamsSchema,
  batchRequestSchema,
  type CaptureResult,
  captureRequestSchema,
  IMAGE_PREVIEW_LIMITS,
  jobParamsSchema,
  previewUrlOf,
  rawCaptureRequestSchema,
} from '@vitrine/contract';
import { z } from 'zod';
import { type ApiClient, ApiError } from './api-client.ts';
import { CliError } from './exit-codes.ts';

const CAPTURE_TIMEOUT_MS = 300_000;

const includeImage = z
  .boolean()
  .optional()
  .describe('Also return the image itself (not only its URL), so you can look at it');

/** Tool inputs: the contract's own request schemas, plus `include_image`. */
export const MCP_TOOL_INPUTS = {
  capture: captureRequestSchema.extend({ include_image: includeImage }),
  raw_capture: rawCaptureRequestSchema.extend({ include_image: includeImage }),
  list_backgrounds: z.strictObject({
    q: z.string().max(200).optional().describe('Search name, pack and tags'),
    theme: z.enum(BACKGROUND_THEMES).optional(),
    pack: z.string().max(200).optional().describe('Comma-separated pack names'),
    group: z.enum(BACKGROUND_GROUPS).optional(),
    limit: z.number().int().min(1).max(200).optional().describe('Default 50'),
    offset: z.number().int().min(0).optional(),
  }),
  job_status: z.strictObject({ job_id: jobParamsSchema.shape.id }),
  list_devices: z.strictObject({}),
  batch_capture: batchRequestSchema.extend({
    wait_seconds: z
      .number()
      .int()
      .min(0)
      .max(600)
      .optional()
      .describe(
        'How long to wait for the batch to end before answering with its id (default 120; 0: answer at once)',
      ),
  }),
  batch_status: z.strictObject({ batch_id: batchParamsSchema.shape.id }),
} as const;

/** A batch for the host: one line per render (its URL or its error), then the JSON. */
function batchContent(batch: Batch): ToolResult {
  const lines = [
    `Batch ${batch.id}: ${batch.status}; ${batch.counts.completed} completed, ${batch.counts.failed} failed, ${batch.counts.pending} pending of ${batch.counts.total}${batch.status === 'running' ? ' (poll it with batch_status)' : ''}`,
    ...batch.renders.map(
      (r) =>
        `- items[${r.index}]${r.look ? ` look ${r.look}` : ''} ${r.url}: ${r.result ? r.result.url : r.status === 'failed' ? `failed: ${r.error ?? ''}` : 'pending'}`,
    ),
  ];
  return {
    content: [
      { type: 'text', text: lines.join('\n') },
      { type: 'text', text: JSON.stringify(batch) },
    ],
  };
}

type Content = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
type ToolResult = { content: Content[]; isError?: boolean };

function failure(error: unknown): ToolResult {
  const text =
    error instanceof ApiError
      ? `${error.code}: ${error.message}${error.details ? ` ${JSON.stringify(error.details)}` : ''}`
      : error instanceof CliError
        ? error.message
        : 'Unexpected failure in the Vitrine MCP server';
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * The image for the host: the render itself when it fits the contract's preview limits (longest
 * side 1568 px, 1 MB), else the server's downscaled WebP preview with a note saying so; hosts
 * refuse larger images. Null (and a note) when neither could be fetched.
 */
async function imageForHost(
  client: ApiClient,
  result: CaptureResult,
): Promise<{ image: Content | null; note: string | null }> {
  const { maxSide, maxBytes } = IMAGE_PREVIEW_LIMITS;
  // Hosts read PNG, JPEG and WebP; an AVIF render goes over as its WebP preview.
  if (Math.max(result.width, result.height) <= maxSide && result.format !== 'avif') {
    const { bytes, contentType } = await client.download(result.url);
    if (bytes.length <= maxBytes) {
      const mimeType = contentType ?? `image/${result.format === 'jpg' ? 'jpeg' : result.format}`;
      return { image: { type: 'image', data: bytes.toString('base64'), mimeType }, note: null };
    }
  }
  const full = `the full ${result.width}x${result.height} image is at ${result.url}`;
  const previewUrl = previewUrlOf(result.url);
  try {
    if (previewUrl === null) throw new Error('no preview URL');
    const { bytes } = await client.download(previewUrl);
    return {
      image: { type: 'image', data: bytes.toString('base64'), mimeType: 'image/webp' },
      note:
        result.format === 'avif' && Math.max(result.width, result.height) <= maxSide
          ? `The attached image is a WebP preview of the AVIF render (hosts do not read AVIF); ${full}.`
          : `The attached image is a preview downscaled to at most ${maxSide} px on its longest side and ${maxBytes / 1_000_000} MB (WebP); ${full}.`,
    };
  } catch {
    return { image: null, note: `The image is too large to attach; ${full}.` };
  }
}

async function captureContent(
  client: ApiClient,
  result: CaptureResult,
  withImage: boolean | undefined,
): Promise<ToolResult> {
  // A video is shown to the host by its poster (the first frame): hosts take images only.
  const still = result.video ? { ...result, url: result.video.poster_url, format: 'jpg' as const } : result;
  const { image, note } = withImage ? await imageForHost(client, still) : { image: null, note: null };
  const video = result.video
    ? `Video URL: ${result.url} (${result.video.duration_ms / 1000} s, ${result.video.frames} frames at ${result.video.fps} fps, ${result.video.codec}); poster image: ${result.video.poster_url}\n`
    : '';
  const content: Content[] = [
    {
      type: 'text',
      text: `${video || `Image URL: ${result.url}\n`}${result.width}x${result.height} ${result.format}, ${result.credits_used} credits${result.cached ? ' (cached)' : ''}${result.warnings.length > 0 ? `\nWarnings: ${result.warnings.join('; ')}` : ''}${note ? `\n${note}` : ''}`,
    },
    { type: 'text', text: JSON.stringify(result) },
  ];
  if (image) content.push(image);
  return { content };
}

/**
 * The Model Context Protocol server of `vitrine mcp`: capture, raw_capture, batch_capture, batch_status, list_backgrounds, list_devices and
 * job_status as tools over stdio, each taking the contract's own input schema and calling the
 * configured Vitrine server with the configured key.
 */
export function createMcpServer(client: ApiClient, version: string): McpServer {
  const server = new McpServer({ name: 'vitrine', version });
  const guarded =
    <A>(run: (args: A) => Promise<ToolResult>) =>
    async (args: A): Promise<ToolResult> => {
      try {
        return await run(args);
      } catch (error) {
        return failure(error);
      }
    };

  server.registerTool(
    'capture',
    {
      title: 'Styled screenshot',
      description:
        'Capture a web page (a url, or an html document) and compose styling around it (device frame, background, padding, shadow, perspective, titles). actions click, type, select, press, hover, scroll or wait before the shot; headers, locale, timezone, geolocation, cookies and color_scheme set how the browser presents itself; metadata: true returns the page\'s title, description, Open Graph tags, colours and fonts. Returns the image URL; with include_image also the image. With async: true it queues a job: poll it with job_status. With motion ({"type": "scroll" | "reveal" | "float"}) it renders an MP4, WebM or GIF video of the styled look instead (queued unless async: false; include_image attaches its poster). With shots (2 to 6, e.g. [{"device": "macbook-pro-16"}, {"device": "iphone-16-pro"}], each with its own url, viewport, device, device_color, dark_mode, element or selector, full_page) it composes one scene of several framed shots under one background and title, arranged by scene.layout: side-by-side, overlap (a laptop with a phone in front), fan, grid, stack or cascade; list_devices names the devices.',
      inputSchema: MCP_TOOL_INPUTS.capture,
    },
    guarded(async (args: z.output<typeof MCP_TOOL_INPUTS.capture>) => {
      const { include_image, ...body } = args;
      const answer = await client.call('createCapture', { body, timeoutMs: CAPTURE_TIMEOUT_MS });
      if ('job_id' in answer.body) {
        return {
          content: [{ type: 'text', text: `Queued job ${answer.body.job_id}; poll it with job_status.` }],
        };
      }
      return captureContent(client, answer.body, include_image);
    }),
  );

  server.registerTool(
    'raw_capture',
    {
      title: 'Plain screenshot',
      description:
        'Capture a web page (a url, or an html document) without styling (the screenshot alone); the same actions, browser identity and metadata fields as capture. Returns the image URL; with include_image also the image.',
      inputSchema: MCP_TOOL_INPUTS.raw_capture,
    },
    guarded(async (args: z.output<typeof MCP_TOOL_INPUTS.raw_capture>) => {
      const { include_image, ...body } = args;
      const { body: result } = await client.call('createRawCapture', { body, timeoutMs: CAPTURE_TIMEOUT_MS });
      return captureContent(client, result, include_image);
    }),
  );

  server.registerTool(
    'list_backgrounds',
    {
      title: 'Hosted backgrounds',
      description:
        'List the gradient presets (capture field background_preset) and hosted backgrounds (capture field background).',
      inputSchema: MCP_TOOL_INPUTS.list_backgrounds,
    },
    guarded(async (args: z.output<typeof MCP_TOOL_INPUTS.list_backgrounds>) => {
      const { body } = await client.call('listBackgrounds', { query: { ...args } });
      const lines = [
        `Gradient presets (background_preset): ${body.presets.map((p) => p.background_preset).join(', ')}`,
        `Hosted backgrounds (background), ${body.backgrounds.length} of ${body.total}:`,
        ...body.backgrounds.map((b) => `- ${b.background}: ${b.name} (${b.theme}, ${b.pack})`),
      ];
      return { content: [{ type: 'text', text: lines.join('\n') }] };
    }),
  );

  server.registerTool(
    'list_devices',
    {
      title: 'Device frames',
      description:
        'List the device frames (capture field device, also per shot of a scene): phones, tablets, laptops, a desktop display, a watch, browser windows and a terminal, with their finishes (device_color) and default viewports.',
      inputSchema: MCP_TOOL_INPUTS.list_devices,
    },
    guarded(async () => {
      const { body } = await client.call('listDevices', {});
      const lines = body.devices.map(
        (d) =>
          `- ${d.device}: ${d.label} (${d.family}; viewport ${d.viewport.width}x${d.viewport.height} at ${d.dpr}x; device_color ${d.finishes.map((f) => f.name).join(', ')})`,
      );
      return { content: [{ type: 'text', text: ['Device frames (device):', ...lines].join('\n') }] };
    }),
  );

  server.registerTool(
    'job_status',
    {
      title: 'Async capture job',
      description: 'The status of a capture queued with async: true, and its result once completed.',
      inputSchema: MCP_TOOL_INPUTS.job_status,
    },
    guarded(async (args: z.output<typeof MCP_TOOL_INPUTS.job_status>) => {
      const { body } = await client.call('getJob', { params: { id: args.job_id } });
      return { content: [{ type: 'text', text: JSON.stringify(body) }] };
    }),
  );

  server.registerTool(
    'batch_capture',
    {
      title: 'Many styled screenshots',
      description:
        'Capture up to 100 pages in one call: items (URLs, or capture requests), shared defaults, and named looks (styling variants) each applied to every item; a page is loaded once and composed once per look. Credits are reserved up front and refunded for renders that fail. Waits up to wait_seconds for the batch to end, then returns every image URL (or the batch id to poll with batch_status).',
      inputSchema: MCP_TOOL_INPUTS.batch_capture,
    },
    guarded(async (args: z.output<typeof MCP_TOOL_INPUTS.batch_capture>) => {
      const { wait_seconds, ...body } = args;
      const { body: submitted } = await client.call('createBatch', {
        body,
        headers: { 'idempotency-key': crypto.randomUUID() },
        timeoutMs: 120_000,
      });
      let batch = submitted;
      const deadline = Date.now() + (wait_seconds ?? 120) * 1000;
      while (batch.status === 'running' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        batch = (await client.call('getBatch', { params: { id: batch.id } })).body;
      }
      return batchContent(batch);
    }),
  );

  server.registerTool(
    'batch_status',
    {
      title: 'Batch of captures',
      description:
        'The state of a batch from batch_capture: counts, and each render with its image URL or error.',
      inputSchema: MCP_TOOL_INPUTS.batch_status,
    },
    guarded(async (args: z.output<typeof MCP_TOOL_INPUTS.batch_status>) => {
      const { body } = await client.call('getBatch', { params: { id: args.batch_id } });
      return batchContent(body);
    }),
  );

  return server;
}

/**
 * Serves MCP on stdin/stdout until the host closes stdin. The SDK's stdio transport does not
 * watch for the end of its input, so the wait below never settled and Node ended the process
 * with exit code 13 ("unsettled top-level await"): every host logged a failed server at the end
 * of each session. The end (or close) of stdin now closes the server, and the command exits 0.
 */
export async function serveMcp(client: ApiClient, version: string): Promise<void> {
  const server = createMcpServer(client, version);
  const input = process.stdin;
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  const close = () => void server.close().catch(() => undefined);
  input.once('end', close);
  input.once('close', close);
  try {
    await server.connect(new StdioServerTransport(input, process.stdout));
    await closed;
  } finally {
    input.off('end', close);
    input.off('close', close);
  }
}
