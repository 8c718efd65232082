import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loginChromiumPath } from './browser-login.ts';

describe('the browser of vitrine auth login', () => {
  const system = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => fs.existsSync(file));

  it('opens a window in the configured Chromium', () => {
    expect(loginChromiumPath({ VITRINE_CHROMIUM_PATH: '/opt/chrome/chrome' })).toBe('/opt/chrome/chrome');
  });

  it('never in the headless shell or `auto`, which have no window', () => {
    expect(loginChromiumPath({ VITRINE_CHROMIUM_PATH: 'auto' })).toBe(system);
    expect(loginChromiumPath({ VITRINE_CHROMIUM_PATH: '/usr/lib/chromium/chromium-headless-shell' })).toBe(
      system,
    );
    expect(loginChromiumPath({})).toBe(system);
  });
});
