import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CANVAS_NAMES, DEVICES, IMAGE_PREVIEW_LIMITS } from '@vitrine/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/vitrine');

interface ToolContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
}

/** `vitrine mcp` spoken to through the official SDK's client over stdio, as an AI agent would. */
describe('vitrine mcp', () => {
  let t: TestApp;
  let fixtures: RunningServer;
  let client: Client;
  let home: string;
  let key: string;

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    // The reproduction: a full page 1568 CSS px wide and 5128 tall at dpr 2 is 3136x10256.
    fixtures.route('/tall-5128', (_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!doctype html><style>html,body{margin:0}main{height:5128px;background:linear-gradient(#0d9488,#f59e0b)}</style><main></main>',
        );
    });
    t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
    ({ key } = await t.createKey());
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-mcp-'));
    client = new Client({ name: 'vitrine-test-agent', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: BIN,
        args: ['mcp'],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          VITRINE_CONFIG_DIR: home,
          VITRINE_URL: t.baseUrl,
          VITRINE_API_KEY: key,
        },
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await t?.close();
    await fixtures?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('lists the tools with input schemas derived from the contract', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'batch_capture',
      'batch_status',
      'capture',
      'job_status',
      'list_backgrounds',
      'list_devices',
      'raw_capture',
    ]);
    const capture = tools.find((tool) => tool.name === 'capture')!;
    const properties = capture.inputSchema.properties as Record<string, { enum?: unknown[] }>;
    // The contract's list: the five of the interface first, then the frames of issue 38.
    expect(properties.device?.enum).toEqual([...DEVICES]);
    expect(properties.device?.enum?.slice(0, 5)).toEqual([
      'iphone-16-pro',
      'macbook-pro-16',
      'ipad-pro-m4',
      'browser-macos',
      'browser-windows',
    ]);
    expect(properties.canvas?.enum).toEqual([...CANVAS_NAMES]);
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining(['url', 'padding', 'title', 'output', 'include_image', 'shots', 'scene']),
    );
    const raw = tools.find((tool) => tool.name === 'raw_capture')!;
    expect(Object.keys(raw.inputSchema.properties ?? {})).not.toContain('device');
    const job = tools.find((tool) => tool.name === 'job_status')!;
    expect(job.inputSchema.required).toEqual(['job_id']);
  });

  it('captures a page and returns the image URL and, when asked, the image itself', async () => {
    const result = await client.callTool(
      {
        name: 'capture',
        arguments: {
          url: `${fixtures.origin}/capture/dark.html`,
          viewport: { width: 800, height: 600 },
          padding: 40,
          include_image: true,
        },
      },
      undefined,
      { timeout: 180_000 },
    );
    expect(result.isError).toBeFalsy();
    const content = result.content as ToolContent[];
    const url = /Image URL: (\S+)/.exec(content[0]!.text!)![1]!;
    expect(url).toMatch(new RegExp(`^${t.baseUrl}/cdn/r/cap_[0-9A-Z]{26}\\.png$`));
    expect(JSON.parse(content[1]!.text!)).toMatchObject({ url, width: 880, height: 680 });
    const image = content.find((c) => c.type === 'image')!;
    expect(image.mimeType).toBe('image/png');
    const meta = await sharp(Buffer.from(image.data!, 'base64')).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 880, height: 680 });
  }, 240_000);

  it('takes the capture controls: html, steps, metadata, and an AVIF render attached as WebP', async () => {
    const { tools } = await client.listTools();
    const properties = tools.find((tool) => tool.name === 'raw_capture')!.inputSchema.properties ?? {};
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining(['html', 'css', 'actions', 'headers', 'locale', 'timezone', 'metadata']),
    );
    const html =
      '<!doctype html><title>before</title><style>body{margin:0;background:#0d9488}</style><button id="b" onclick="document.title=\'clicked\'">Go</button>';
    const result = await client.callTool(
      {
        name: 'raw_capture',
        arguments: {
          html,
          viewport: { width: 400, height: 300 },
          actions: [{ type: 'click', selector: '#b' }],
          metadata: true,
          output: { format: 'avif' },
          include_image: true,
        },
      },
      undefined,
      { timeout: 180_000 },
    );
    expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
    const content = result.content as ToolContent[];
    const full = JSON.parse(content[1]!.text!);
    expect(full).toMatchObject({ format: 'avif', width: 400, height: 300, metadata: { title: 'clicked' } });
    expect(content[0]!.text).toMatch(/WebP preview of the AVIF render/);
    const image = content.find((c) => c.type === 'image')!;
    expect(image.mimeType).toBe('image/webp');
    expect(await sharp(Buffer.from(image.data!, 'base64')).metadata()).toMatchObject({
      format: 'webp',
      width: 400,
      height: 300,
    });
  }, 240_000);

  it('attaches a large capture as a preview within 1568 px and 1 MB, with a note and the full URL', async () => {
    const result = await client.callTool(
      {
        name: 'raw_capture',
        arguments: {
          url: `${fixtures.origin}/tall-5128`,
          viewport: { width: 1568, height: 900 },
          full_page: true,
          capture_dpr: 2,
          include_image: true,
        },
      },
      undefined,
      { timeout: 240_000 },
    );
    expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
    const content = result.content as ToolContent[];
    const full = JSON.parse(content[1]!.text!);
    expect(full).toMatchObject({ width: 3136, height: 10256 });
    expect(content[0]!.text).toContain(`the full 3136x10256 image is at ${full.url}`);
    expect(content[0]!.text).toMatch(/preview downscaled to at most 1568 px/);
    const image = content.find((c) => c.type === 'image')!;
    expect(image.mimeType).toBe('image/webp');
    const bytes = Buffer.from(image.data!, 'base64');
    expect(bytes.length).toBeLessThanOrEqual(IMAGE_PREVIEW_LIMITS.maxBytes);
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.height).toBe(IMAGE_PREVIEW_LIMITS.maxSide);
    expect(meta.width).toBe(Math.round((3136 * IMAGE_PREVIEW_LIMITS.maxSide) / 10256));
  }, 300_000);

  it('exits 0 when the host closes stdin', async () => {
    const child = spawn(BIN, ['mcp'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        VITRINE_CONFIG_DIR: home,
        VITRINE_URL: t.baseUrl,
        VITRINE_API_KEY: key,
      },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    // The SDK's own framing over the child's pipes; unlike StdioClientTransport.close, ending
    // stdin here sends no signal after a grace period, so the exit code is the server's own.
    const readBuffer = new ReadBuffer();
    const transport: Transport = {
      async start() {
        child.stdout.on('data', (chunk: Buffer) => {
          readBuffer.append(chunk);
          for (let message = readBuffer.readMessage(); message; message = readBuffer.readMessage()) {
            transport.onmessage?.(message);
          }
        });
      },
      async send(message: JSONRPCMessage) {
        child.stdin.write(serializeMessage(message));
      },
      async close() {
        child.stdin.end();
      },
    };
    const host = new Client({ name: 'vitrine-exit-test', version: '1.0.0' });
    await host.connect(transport);
    expect((await host.listTools()).tools).toHaveLength(7);
    child.stdin.end();
    expect(await exited, stderr).toBe(0);
    expect(stderr).not.toMatch(/unsettled|Warning/);
  }, 120_000);

  it('batch_capture renders every item under every look and lists each image URL', async () => {
    const result = await client.callTool(
      {
        name: 'batch_capture',
        arguments: {
          defaults: { viewport: { width: 400, height: 300 } },
          items: [
            `${fixtures.origin}/capture/simple.html?mcp=1`,
            `${fixtures.origin}/capture/dark.html?mcp=1`,
          ],
          looks: { tight: { padding: 16 }, roomy: { padding: 64 } },
          wait_seconds: 300,
        },
      },
      undefined,
      { timeout: 320_000 },
    );
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const [summary, json] = result.content as ToolContent[];
    expect(summary!.text).toMatch(/^Batch bat_[0-9A-Z]{26}: completed; 4 completed, 0 failed/);
    expect(summary!.text).toContain('items[1] look roomy');
    const batch = JSON.parse(json!.text!);
    expect(batch.renders.every((r: { result: { url: string } | null }) => r.result?.url)).toBe(true);
    const status = await client.callTool({ name: 'batch_status', arguments: { batch_id: batch.id } });
    expect((status.content as ToolContent[])[0]!.text).toContain(`Batch ${batch.id}: completed`);
    const invalid = await client.callTool({
      name: 'batch_capture',
      arguments: { items: [`${fixtures.origin}/capture/simple.html`, { url: 'x', padding: -5 }] },
    });
    expect(invalid.isError).toBe(true);
    expect((invalid.content as ToolContent[])[0]!.text).toContain('items[1]');
  }, 360_000);

  it('reports the service error as a tool error, and lists backgrounds', async () => {
    const refused = await client.callTool({ name: 'capture', arguments: { url: 'http://169.254.169.254/' } });
    expect(refused.isError).toBe(true);
    expect((refused.content as ToolContent[])[0]!.text).toMatch(/^target_not_allowed: /);

    const invalid = await client.callTool({
      name: 'capture',
      arguments: { url: 'https://example.com', device: 'toaster' },
    });
    expect(invalid.isError).toBe(true);

    const unknownJob = await client.callTool({
      name: 'job_status',
      arguments: { job_id: `job_${'0'.repeat(26)}` },
    });
    expect(unknownJob.isError).toBe(true);
    expect((unknownJob.content as ToolContent[])[0]!.text).toMatch(/^not_found: /);

    const backgrounds = await client.callTool({
      name: 'list_backgrounds',
      arguments: { theme: 'dark', limit: 3 },
    });
    const text = (backgrounds.content as ToolContent[])[0]!.text!;
    expect(text).toContain('Gradient presets (background_preset): aurora');
    expect(text.match(/^- /gm)).toHaveLength(3);
  });

  it('lists the devices, and composes a scene of two shots of one page', async () => {
    const devices = await client.callTool({ name: 'list_devices', arguments: {} });
    const list = (devices.content as ToolContent[])[0]!.text!;
    for (const device of DEVICES) expect(list).toContain(`- ${device}: `);
    const result = await client.callTool(
      {
        name: 'capture',
        arguments: {
          url: `${fixtures.origin}/capture/dark.html`,
          viewport: { width: 800, height: 600 },
          shots: [{ device: 'browser-macos' }, { device: 'browser-minimal', dark_mode: true }],
          scene: { layout: 'cascade' },
        },
      },
      undefined,
      { timeout: 180_000 },
    );
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const content = result.content as ToolContent[];
    expect(JSON.parse(content[1]!.text!)).toMatchObject({ cached: false, credits_used: 2 });
  }, 240_000);
});
