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
