import { type Dialer, type DialTarget, dialTcp } from '../../packages/server/src/netpolicy/egress-dialer.ts';
import type { Resolver } from '../../packages/server/src/netpolicy/target-policy.ts';

/**
 * An egress dialer for test apps that connects only inside 127.0.0.0/8 and records every
 * address it was asked for (security.md 1.8): even a broken guard could not send a packet off
 * the machine, and a test can show that a refused address was never dialled at all.
 */
export function loopbackDialer(): { dial: Dialer; dialled: DialTarget[] } {
  const dialled: DialTarget[] = [];
  const dial: Dialer = (target, signal) => {
    dialled.push(target);
    return target.address.startsWith('127.')
      ? dialTcp(target, signal)
      : Promise.reject(new Error(`test dialer refuses ${target.address}`));
  };
  return { dial, dialled };
}

/** A resolver that answers nothing: tests look no name up (every fixture is an IP literal). */
export const noDnsResolver: Resolver = {
  resolve: async () => Promise.reject(Object.assign(new Error('no DNS in tests'), { code: 'ENOTFOUND' })),
};
