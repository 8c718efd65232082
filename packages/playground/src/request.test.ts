import { describe, expect, it } from 'vitest';
import { cliCommand, curlCommand, fetchSnippet, minimalBody, setField } from './request.ts';

describe('the playground request', () => {
  it('keeps only fields that differ from the contract defaults', () => {
    let body = setField({ url: 'https://example.com' }, ['padding'], 64);
    expect(body).toEqual({ url: 'https://example.com' });
    body = setField(body, ['padding'], 24);
    body = setField(body, ['output', 'format'], 'png');
    body = setField(body, ['output', 'dpr'], 2);
    body = setField(body, ['viewport'], { width: 1440, height: 900 });
    body = setField(body, ['title'], '');
    expect(body).toEqual({ url: 'https://example.com', padding: 24, output: { dpr: 2 } });
    expect(setField(body, ['output', 'dpr'], 1)).toEqual({ url: 'https://example.com', padding: 24 });
    expect(minimalBody({ url: 'u', shadow: 'soft', output: { format: 'png' }, dark_mode: true })).toEqual({
      url: 'u',
      dark_mode: true,
    });
  });

  it('writes curl with the body shell-quoted, quotes inside included', () => {
    const curl = curlCommand('http://127.0.0.1:8080', { url: 'https://example.com', title: "It's here" });
    expect(curl).toContain('curl -sS -X POST http://127.0.0.1:8080/v1/capture');
    expect(curl).toContain('$VITRINE_API_KEY');
    expect(curl).toContain(`-d '{"url":"https://example.com","title":"It'\\''s here"}'`);
  });

  it('writes the vitrine capture flags the CLI derives from the same schemas', () => {
    expect(
      cliCommand({
        url: 'https://example.com',
        viewport: { width: 800, height: 600 },
        dark_mode: true,
        emulate_mobile: false,
        block: ['ads', 'trackers'],
        title: 'Ship faster',
        output: { format: 'webp', dpr: 2 },
      }),
    ).toBe(
      "vitrine capture https://example.com --viewport 800x600 --dark-mode --no-emulate-mobile --block ads --block trackers --title 'Ship faster' --format webp --dpr 2 -o capture.webp",
    );
  });

  it('writes a motion request as --motion and its --motion-* flags, saved as a video', () => {
    expect(
      cliCommand({
        url: 'https://example.com',
        motion: { type: 'scroll', duration: 4, scroll_to: '#pricing' },
      }),
    ).toBe(
      "vitrine capture https://example.com --motion scroll --motion-duration 4 --motion-scroll-to '#pricing' -o capture.mp4",
    );
    expect(
      minimalBody({ url: 'https://example.com', motion: { type: 'float', easing: 'ease-in-out' } }),
    ).toEqual({
      url: 'https://example.com',
      motion: { type: 'float', easing: 'ease-in-out' },
    });
  });

  it('writes a fetch snippet whose body is the request', () => {
    const snippet = fetchSnippet('http://h', { url: 'https://example.com', padding: 0 });
    expect(snippet).toContain("fetch('http://h/v1/capture'");
    expect(snippet).toContain('"padding": 0');
  });
});
