import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  captureRequestSchema,
  motionSchema,
  outputSchema,
  rawCaptureRequestSchema,
  sceneSchema,
} from '@vitrine/contract';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addFieldOptions, bodyFromOptions, fieldFlags, validateBody } from './capture-flags.ts';
import { CliError, EXIT } from './exit-codes.ts';

function parse(args: string[], schema = captureRequestSchema) {
  const flags = fieldFlags(schema);
  const command = new Command('capture').exitOverride().argument('<url>');
  addFieldOptions(command, flags);
  command.parse(['https://example.com', ...args], { from: 'user' });
  const body = bodyFromOptions(flags, command.opts());
  return validateBody(schema, { url: 'https://example.com', ...body }, flags);
}

describe('capture flags derived from the contract', () => {
  it('has a flag for every field of the capture request (output.* as --format, --width, ...)', () => {
    const flags = fieldFlags(captureRequestSchema);
    const paths = flags.map((f) => f.path.join('.'));
    for (const field of Object.keys(captureRequestSchema.shape)) {
      if (field === 'url' || field === 'site') continue;
      if (field === 'output') {
        for (const sub of Object.keys(outputSchema.shape)) expect(paths).toContain(`output.${sub}`);
      } else if (field === 'motion') {
        for (const sub of Object.keys(motionSchema.shape)) expect(paths).toContain(`motion.${sub}`);
      } else if (field === 'scene') {
        for (const sub of Object.keys(sceneSchema.shape)) expect(paths).toContain(`scene.${sub}`);
      } else {
        expect(paths, field).toContain(field);
      }
    }
    expect(new Set(flags.map((f) => f.flag)).size).toBe(flags.length);
    expect(flags.find((f) => f.flag === '--dark-mode')).toMatchObject({
      path: ['dark_mode'],
      kind: 'boolean',
    });
    expect(flags.find((f) => f.flag === '--format')?.choices).toEqual([
      'png',
      'webp',
      'jpg',
      'avif',
      'mp4',
      'webm',
      'gif',
    ]);
    expect(flags.find((f) => f.flag === '--actions')?.kind).toBe('json-list');
    expect(flags.find((f) => f.flag === '--cookies')?.kind).toBe('json-list');
    expect(flags.find((f) => f.flag === '--hide-selectors')?.kind).toBe('list');
    expect(flags.find((f) => f.flag === '--headers')?.kind).toBe('json');
    // `--motion scroll --motion-duration 6`: the type is the flag itself.
    expect(flags.find((f) => f.flag === '--motion')).toMatchObject({
      path: ['motion', 'type'],
      kind: 'enum',
    });
    expect(flags.find((f) => f.flag === '--motion-scroll-to')).toMatchObject({
      path: ['motion', 'scroll_to'],
    });
  });

  it('builds a motion request from --motion and its --motion-* flags', () => {
    const args = [
      '--motion',
      'scroll',
      '--motion-duration',
      '4',
      '--motion-scroll-to',
      '#pricing',
      '--format',
      'gif',
    ];
    expect(parse(args)).toMatchObject({
      motion: { type: 'scroll', duration: 4, scroll_to: '#pricing' },
      output: { format: 'gif' },
    });
  });

  it('raw takes only the target and output fields', () => {
    const raw = fieldFlags(rawCaptureRequestSchema).map((f) => f.flag);
    expect(raw).toContain('--full-page');
    expect(raw).toContain('--format');
    expect(raw).not.toContain('--device');
    expect(raw).not.toContain('--title');
  });

  it('parses every kind into the request body', () => {
    expect(
      parse([
        '--device',
        'iphone-16-pro',
        '--padding',
        '32.5',
        '--dark-mode',
        '--no-full-page',
        '--block',
        'ads',
        '--block',
        'image',
        '--viewport',
        '1280x800',
        '--wait-for',
        '1500',
        '--format',
        'webp',
        '--dpr',
        '2',
        '--title',
        'Hello, world',
      ]),
    ).toEqual({
      url: 'https://example.com',
      device: 'iphone-16-pro',
      padding: 32.5,
      dark_mode: true,
      full_page: false,
      block: ['ads', 'image'],
      viewport: { width: 1280, height: 800 },
      wait_for: 1500,
      output: { format: 'webp', dpr: 2 },
      title: 'Hello, world',
    });
    expect(parse(['--wait-for', '#app .ready'])).toMatchObject({ wait_for: '#app .ready' });
  });

  it('parses the capture controls: steps and cookies as JSON (one or several a flag), identity, metadata', () => {
    expect(
      parse([
        '--actions',
        '{"type":"click","selector":"#tab"}',
        '--actions',
        '[{"type":"wait","ms":200},{"type":"press","key":"Enter"}]',
        '--headers',
        '{"X-Demo":"1"}',
        '--locale',
        'de-DE',
        '--timezone',
        'Europe/Berlin',
        '--geolocation',
        '{"latitude":52.5,"longitude":13.4}',
        '--reduced-motion',
        '--color-scheme',
        'dark',
        '--cookies',
        '{"name":"sid","value":"x"}',
        '--metadata',
        '--format',
        'avif',
      ]),
    ).toEqual({
      url: 'https://example.com',
      actions: [
        { type: 'click', selector: '#tab' },
        { type: 'wait', ms: 200 },
        { type: 'press', key: 'Enter' },
      ],
      headers: { 'X-Demo': '1' },
      locale: 'de-DE',
      timezone: 'Europe/Berlin',
      geolocation: { latitude: 52.5, longitude: 13.4 },
      reduced_motion: true,
      color_scheme: 'dark',
      cookies: [{ name: 'sid', value: 'x' }],
      metadata: true,
      output: { format: 'avif' },
    });
  });

  it('refuses bad values naming the flag and the valid values', () => {
    const refused = (args: string[]) => {
      try {
        parse(args);
      } catch (error) {
        return error;
      }
      throw new Error('accepted');
    };
    const padding = refused(['--padding', 'wide']) as CliError;
    expect(padding).toBeInstanceOf(CliError);
    expect(padding.exitCode).toBe(EXIT.usage);
    expect(padding.message).toBe('Invalid --padding: expected a number, got "wide"');
    expect((refused(['--padding', '9999']) as CliError).message).toMatch(/^Invalid --padding: /);
    expect((refused(['--viewport', 'big']) as CliError).message).toContain('WIDTHxHEIGHT');
    expect((refused(['--viewport', '10x10']) as CliError).message).toMatch(/^Invalid --viewport: /);
    expect((refused(['--width', '0']) as CliError).message).toMatch(/^Invalid --width: /);
    // commander itself refuses values outside the choices
    expect(String(refused(['--device', 'toaster']))).toContain('iphone-16-pro');
    expect((refused(['--actions', 'click #tab']) as CliError).message).toBe(
      'Invalid --actions: expected a JSON object, got "click #tab"',
    );
    expect((refused(['--actions', '{"type":"teleport"}']) as CliError).message).toMatch(
      /^Invalid --actions: /,
    );
  });

  it('builds a scene from repeated --shot flags, a --shots file and the --scene-* flags', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-shots-'));
    const file = path.join(dir, 'shots.json');
    writeFileSync(file, JSON.stringify([{ device: 'macbook-pro-16' }]));
    const body = parse([
      '--shots',
      file,
      '--shot',
      'url=https://example.com/a?x=1,y=2,device=iphone-16,dark_mode=true,viewport=390x844',
      '--shot',
      '{"device":"pixel-9","full_page":true}',
      '--scene-layout',
      'overlap',
      '--scene-spacing',
      '32',
    ]);
    expect(body.shots).toEqual([
      { device: 'macbook-pro-16' },
      {
        url: 'https://example.com/a?x=1,y=2',
        device: 'iphone-16',
        dark_mode: true,
        viewport: { width: 390, height: 844 },
      },
      { device: 'pixel-9', full_page: true },
    ]);
    expect(body.scene).toEqual({ layout: 'overlap', spacing: 32 });
    const refused = (args: string[]) => {
      try {
        parse(args);
      } catch (error) {
        return (error as CliError).message;
      }
      throw new Error('accepted');
    };
    expect(refused(['--shot', 'colour=red', '--shot', 'device=pixel-9'])).toMatch(
      /^Invalid --shot: "colour=red"/,
    );
    expect(refused(['--shot', 'device=toaster', '--shot', 'device=pixel-9'])).toMatch(/^Invalid --shot/);
    expect(refused(['--scene-layout', 'pyramid'])).toContain('side-by-side');
  });
});
