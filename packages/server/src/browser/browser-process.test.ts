import { describe, expect, it } from 'vitest';
import { chromiumArgsFor, DEFAULT_CHROMIUM_ARGS, isHeadlessShell } from './browser-process.ts';

describe('chromiumArgsFor', () => {
  it("keeps Chromium's switches as they are", () => {
    expect(chromiumArgsFor('/usr/bin/chromium')).toEqual([...DEFAULT_CHROMIUM_ARGS]);
    expect(chromiumArgsFor('/usr/bin/chromium')).toContain('--font-render-hinting=none');
  });

  it("gives the headless shell the hinting level that draws as Chromium's none", () => {
    for (const shell of [
      '/usr/bin/chromium-headless-shell',
      '/opt/pw/chromium_headless_shell-1200/headless_shell',
    ]) {
      expect(isHeadlessShell(shell)).toBe(true);
      const args = chromiumArgsFor(shell);
      expect(args).toContain('--font-render-hinting=slight');
      expect(args).not.toContain('--font-render-hinting=none');
      expect(args).toHaveLength(DEFAULT_CHROMIUM_ARGS.length);
    }
    // Only the file's own name counts, not a folder on its way.
    expect(isHeadlessShell('/opt/headless-shell-tools/chromium')).toBe(false);
  });
});
