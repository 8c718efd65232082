import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Stats } from '../../bench/measure.ts';
import { compareLatency, keepLatency, readPreviousLatency } from '../../bench/previous-latency.ts';
import { markdown, type Results } from '../../bench/report.ts';

const p50 = (ms: number): Stats => ({ n: 10, p50: ms, p95: ms * 1.2, min: ms, max: ms * 1.3 });

describe('latency against the previous bench run', () => {
  const previous = {
    date: '2026-11-24T13:54:00Z',
    commit: 'abc1234',
    rounds: 10,
    byPage: {
      simple: { 'bare-playwright': p50(500), 'vitrine-raw': p50(300), 'vitrine-capture': p50(400) },
      heavy: { 'bare-playwright': p50(800), 'vitrine-raw': p50(400) },
    },
  };

  it("reads a change against bare-playwright's p50 of the same run, so a slower machine is not a slower capture", () => {
    // The machine is 40 % slower: bare 500 -> 700. Raw follows it (300 -> 420: not slower);
    // the styled capture grows 400 -> 600, 1.5 x where bare grew 1.4 x (+7.1 %: slower).
    const result = compareLatency(
      {
        simple: { 'bare-playwright': p50(700), 'vitrine-raw': p50(420), 'vitrine-capture': p50(600) },
        heavy: { 'bare-playwright': p50(800), 'vitrine-raw': p50(416) },
        long: { 'bare-playwright': p50(600), 'vitrine-raw': p50(300) },
      },
      previous,
    );
    expect(result.previous).toEqual({ date: previous.date, commit: 'abc1234', rounds: 10 });
    expect(result.changes).toEqual([
      {
        page: 'simple',
        contender: 'vitrine-raw',
        p50Ms: 420,
        previousP50Ms: 300,
        plain: 1.4,
        againstBare: 1,
        notSlower: true,
      },
      {
        page: 'simple',
        contender: 'vitrine-capture',
        p50Ms: 600,
        previousP50Ms: 400,
        plain: 1.5,
        againstBare: 1.071,
        notSlower: false,
      },
      // +4 %: within the 5 % allowed.
      {
        page: 'heavy',
        contender: 'vitrine-raw',
        p50Ms: 416,
        previousP50Ms: 400,
        plain: 1.04,
        againstBare: 1.04,
        notSlower: true,
      },
    ]);
  });

  it('keeps a run and reads it back; a missing or broken file is a first run', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-'));
    const file = path.join(dir, 'results', 'latency.json');
    expect(readPreviousLatency(file)).toBeUndefined();
    keepLatency(previous, file);
    expect(readPreviousLatency(file)).toEqual(previous);
    fs.writeFileSync(file, '{"byPage": ');
    expect(readPreviousLatency(file)).toBeUndefined();
    fs.rmSync(dir, { recursive: true });
  });

  it('is reported in docs/benchmarks.md beside the sequential latency', () => {
    const results: Results = {
      date: '2026-11-25T10:00:00Z',
      commit: 'def5678',
      machine: { nproc: 2, memoryGb: 8, cpu: 'x', chromium: '1', node: 'v24', loadAverageBefore: [0, 0, 0] },
      settings: {},
      sections: ['latency'],
      notes: [],
      latency: { byPage: { simple: { 'bare-playwright': p50(500), 'vitrine-raw': p50(330) } }, phases: {} },
      latencyAgainstPrevious: compareLatency(
        { simple: { 'bare-playwright': p50(500), 'vitrine-raw': p50(330) } },
        previous,
      ),
    };
    const text = markdown(results);
    expect(text).toContain('(commit def5678)');
    expect(text).toContain(
      'Against the previous latency run on this machine (2026-11-24 13:54 UTC, abc1234, 10 rounds)',
    );
    expect(text).toContain('| simple | vitrine-raw | 330 / 300 | +10 % | +10 % | **no** |');
    const none = markdown({ ...results, latencyAgainstPrevious: { previous, changes: [] } });
    expect(none).toContain(
      'The previous latency run on this machine (abc1234) measured none of these pages.',
    );
  });
});
