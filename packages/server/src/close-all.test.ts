import { describe, expect, it } from 'vitest';
import { closeAll } from './close-all.ts';

describe('closeAll', () => {
  it('closes every resource even when an early one throws, then reports the failure', async () => {
    const closed: string[] = [];
    const run = closeAll([
      {
        name: 'http',
        close: () => {
          throw new Error('boom');
        },
      },
      { name: 'browser', close: async () => void closed.push('browser') },
      { name: 'database', close: () => void closed.push('database') },
    ]);
    await expect(run).rejects.toThrow('Closing http failed');
    expect(closed).toEqual(['browser', 'database']);
  });

  it('tells how long each resource took, failed ones included, in order', async () => {
    const steps: [string, number][] = [];
    const run = closeAll(
      [
        { name: 'slow', close: () => new Promise<void>((resolve) => setTimeout(resolve, 50)) },
        {
          name: 'failing',
          close: () => {
            throw new Error('boom');
          },
        },
      ],
      (name, ms) => steps.push([name, ms]),
    );
    await expect(run).rejects.toThrow('Closing failing failed');
    expect(steps.map(([name]) => name)).toEqual(['slow', 'failing']);
    expect(steps[0]?.[1]).toBeGreaterThanOrEqual(45);
  });

  it('reports several failures together', async () => {
    const fail = (name: string) => ({
      name,
      close: async () => {
        throw new Error(name);
      },
    });
    await expect(closeAll([fail('a'), fail('b')])).rejects.toBeInstanceOf(AggregateError);
  });
});
