import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
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

  beforeAll(async () => {
    fixtures = await startFixtureServer();
    t = await startTestApp('sqlite', { env: { VITRINE_ALLOW_TARGETS: '127.0.0.2' } });
    const { key } = await t.createKey();
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

  it('lists the four tools with input schemas derived from the contract', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'capture',
      'job_status',
      'list_backgrounds',
      'raw_capture',
    ]);
    const capture = tools.find((tool) => tool.name === 'capture')!;
    const properties = capture.inputSchema.properties as Record<string, { enum?: unknown[] }>;
    expect(properties.device?.enum).toEqual([
      'iphone-16-pro',
      'macbook-pro-16',
      'ipad-pro-m4',
      'browser-macos',
      'browser-windows',
    ]);
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining(['url', 'padding', 'title', 'output', 'include_image']),
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
});
