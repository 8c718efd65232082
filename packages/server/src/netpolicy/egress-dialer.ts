import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { TargetPolicy } from './target-policy.ts';
import { targetUnreachable } from './target-unreachable.ts';

/** Where to open a TCP connection: an address the policy already checked, never a name. */
export interface DialTarget {
  /** The checked IP address to connect to. */
  address: string;
  port: number;
  /** The name the client asked for (for logs; TLS and Host headers stay end to end). */
  hostname: string;
}

/**
 * Opens a TCP connection to a checked address. Injectable so tests can prove that private
 * targets are never dialled, without ever connecting beyond loopback.
 */
export type Dialer = (target: DialTarget, signal: AbortSignal) => Promise<Duplex>;

/** The real dialer: `net.connect` to the IP literal (no second DNS lookup), cancelled by `signal`. */
export const dialTcp: Dialer = (target, signal) =>
  new Promise<Duplex>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const socket = net.connect({ host: target.address, port: target.port });
    const onAbort = () => {
      socket.destroy();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(socket);
    });
    socket.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(error);
    });
  });

/**
 * Resolves once, checks every address and the port, then connects to the first checked address
 * that answers. Throws `target_not_allowed` (nothing was dialled) or `target_unreachable`.
 */
export async function openCheckedConnection(
  policy: TargetPolicy,
  dial: Dialer,
  host: string,
  port: number,
  signal: AbortSignal,
): Promise<{ socket: Duplex; address: string }> {
  const addresses = await policy.resolveChecked(host, port, { signal });
  return dialChecked(dial, { hostname: host, port, addresses }, signal);
}

/**
 * Connects to the first of the addresses (each already checked by the policy) that answers.
 * Throws `target_unreachable`.
 */
export async function dialChecked(
  dial: Dialer,
  target: { hostname: string; port: number; addresses: readonly string[] },
  signal: AbortSignal,
): Promise<{ socket: Duplex; address: string }> {
  let lastError: unknown;
  for (const address of target.addresses) {
    if (signal.aborted) break;
    try {
      const socket = await dial({ address, port: target.port, hostname: target.hostname }, signal);
      return { socket, address };
    } catch (error) {
      lastError = error;
    }
  }
  throw targetUnreachable(signal.aborted ? signal.reason : lastError);
}

/** Headers that describe one hop, never forwarded by a proxy (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Drops hop-by-hop headers (and those the Connection header names) from raw header pairs.
 * With `keepUpgrade`, `Connection` and `Upgrade` stay, for a WebSocket handshake.
 */
export function endToEndHeaders(rawHeaders: readonly string[], keepUpgrade = false): string[] {
  const named = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() === 'connection') {
      for (const token of (rawHeaders[i + 1] ?? '').split(',')) named.add(token.trim().toLowerCase());
    }
  }
  const result: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    const lower = name.toLowerCase();
    const upgradeHeader = keepUpgrade && (lower === 'connection' || lower === 'upgrade');
    if (!upgradeHeader && (HOP_BY_HOP.has(lower) || named.has(lower))) continue;
    if (keepUpgrade && lower.startsWith('proxy-')) continue;
    result.push(name, rawHeaders[i + 1] ?? '');
  }
  return result;
}
