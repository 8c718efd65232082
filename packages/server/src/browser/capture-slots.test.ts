import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.ts';
import { createCaptureSlots } from './capture-slots.ts';

describe('capture slots', () => {
  it('admits up to the concurrency, queues up to the limit, refuses beyond with overloaded', async () => {
    const slots = createCaptureSlots({ concurrency: 2, queueLimit: 1, retryAfter: (ahead) => ahead });
    const a = await slots.acquire();
    await slots.acquire();
    let thirdGranted = false;
    const third = slots.acquire().then((release) => {
      thirdGranted = true;
      return release;
    });
    const refused = await slots.acquire().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('overloaded');
    expect((refused as AppError).retryAfter).toBe(3);
    expect([slots.running(), slots.queued()]).toEqual([2, 1]);
    expect(thirdGranted).toBe(false);
    a();
    a();
    (await third)();
    expect([slots.running(), slots.queued()]).toEqual([1, 0]);
  });

  it('drops an aborted waiter from the queue and refuses everyone after shut', async () => {
    const slots = createCaptureSlots({ concurrency: 1, queueLimit: 5, retryAfter: () => 1 });
    await slots.acquire();
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    const other = slots.acquire();
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(slots.queued()).toBe(1);
    slots.shut('bye');
    await expect(other).rejects.toMatchObject({ code: 'overloaded' });
    await expect(slots.acquire()).rejects.toMatchObject({ code: 'overloaded' });
  });
});
