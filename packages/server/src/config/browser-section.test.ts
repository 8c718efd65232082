import { describe, expect, it } from 'vitest';
import {
  browserSection,
  CHROMIUM_PATH,
  HEADLESS_SHELL_PATH,
  resolveChromiumPath,
} from './browser-section.ts';

describe('VITRINE_CHROMIUM_PATH', () => {
  it('auto picks the headless shell when it is installed', () => {
    expect(resolveChromiumPath('auto', (file) => file === HEADLESS_SHELL_PATH)).toBe(HEADLESS_SHELL_PATH);
  });

  it('auto falls back to Chromium when the shell is missing', () => {
    expect(resolveChromiumPath('auto', () => false)).toBe(CHROMIUM_PATH);
  });

  it('keeps an explicit path as given, installed or not', () => {
    expect(resolveChromiumPath('/opt/chrome/chrome', () => false)).toBe('/opt/chrome/chrome');
  });

  it('defaults to auto and refuses an empty path', () => {
    const { chromiumPath } = browserSection.variables;
    expect(chromiumPath.defaultText).toBe('auto');
    expect([CHROMIUM_PATH, HEADLESS_SHELL_PATH]).toContain(chromiumPath.schema.parse('auto'));
    expect(chromiumPath.schema.safeParse('  ').success).toBe(false);
  });
});
