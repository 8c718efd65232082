import { type CaptureResult, CREDIT_PRICE_DEFAULTS } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { createCaptureService } from './capture-service.ts';
import type { CaptureRunner } from './run-capture.ts';

const principal = { userId: 'usr_1', keyId: 'key_1', mode: 'live' as const, scopes: [] };

function resultOf(cached: boolean): CaptureResult {
  return {
    id: 'cap_01ARZ3NDEKTSV4RRFFQ69G5FAV',
    url: 'http://vitrine.test/cdn/r/cap_01ARZ3NDEKTSV4RRFFQ69G5FAV.png',
    width: 4,
    height: 3,
    format: 'png',
    duration_ms: 1,
    credits_used: cached ? 0 : 1,
    cached,
    warnings: [],
    created_at: '2026-11-28T12:00:00.000Z',
    resolved_params: {},
    ai_decisions: {},
    element_resolved: {},
  };
}

/** The service over a runner that renders (with the bytes) or answers from the result cache. */
function serviceWith(cached: boolean) {
  const reads: string[] = [];
  const runner = {
    reserve: async () => ({ id: 'crd_1', amount: 1, commit: async () => {}, refund: async () => {} }),
    refundQueued: async () => {},
    run: async () =>
      cached
        ? { result: resultOf(true) }
        : { result: resultOf(false), image: { data: Buffer.from('fresh'), contentType: 'image/png' } },
  } as unknown as CaptureRunner;
  const service = createCaptureService({
    targets: { parseUrl: (input) => new URL(input), checkUrl: async (input) => ({ url: new URL(input) }) },
    findProject: async () => undefined,
    runner,
    queue: {
      enqueue: async () => {
        throw new Error('not queued in these tests');
      },
    },
    prices: CREDIT_PRICE_DEFAULTS,
    validateBackgroundReference: () => {},
    blobStore: {
      get: async (key) => {
        reads.push(key);
        return { data: Buffer.from('stored'), contentType: 'image/png', etag: 'e', size: 6 };
      },
    },
  });
  return { service, reads };
}

describe('captures.capture: one call, and the bytes where asked', () => {
  it('hands back the bytes just rendered, never reading the store', async () => {
    const { service, reads } = serviceWith(false);
    const captured = await service.capture(
      { url: 'https://example.com' },
      principal,
      'capture',
      new AbortController().signal,
    );
    if (captured.status !== 'rendered') throw new Error('expected a render');
    expect((await captured.image()).data.toString()).toBe('fresh');
    expect(reads).toEqual([]);
  });

  it('reads a cached result stored bytes', async () => {
    const { service, reads } = serviceWith(true);
    const captured = await service.capture(
      { url: 'https://example.com' },
      principal,
      'raw',
      new AbortController().signal,
    );
    if (captured.status !== 'rendered') throw new Error('expected a result');
    expect((await captured.image()).data.toString()).toBe('stored');
    expect(reads).toEqual(['renders/cap_01ARZ3NDEKTSV4RRFFQ69G5FAV.png']);
  });
});
