import { lookup } from 'node:dns/promises';
import { AppError, invalidParam } from '../errors/app-error.ts';
import {
  type AllowList,
  classifyAddress,
  createAllowList,
  isAllowListedHost,
  parseIpLiteral,
} from './address-classifier.ts';
import { targetUnreachable } from './target-unreachable.ts';

/** Looks up every A and AAAA address of a host name. Injectable so tests can script rebinding. */
export interface Resolver {
  resolve(hostname: string): Promise<string[]>;
}

/** The system resolver (`getaddrinfo` via `dns.lookup`, so /etc/hosts applies as for any client). */
export function createSystemResolver(): Resolver {
  return {
    resolve: async (hostname) => {
      const results = await lookup(hostname, { all: true, order: 'verbatim' });
      return results.map((entry) => entry.address);
    },
  };
}

export interface TargetPolicyOptions {
  /** `VITRINE_ALLOW_TARGETS`: host names, IPs or CIDRs opened even when private, on any port. */
  allowTargets: readonly string[];
  /** `VITRINE_ALLOWED_PORTS`: ports open on every other (public) host. */
  allowedPorts: readonly number[];
  resolver?: Resolver;
  /** Longest wait for DNS before the target counts as unreachable (default 5000 ms). */
  resolveTimeoutMs?: number;
}

export interface CheckUrlOptions {
  /** Request field named in error messages (default `url`). */
  field?: string;
  /** Whether a bare host (`example.com`) gets `https://` (default true, as for the capture url). */
  allowBareHost?: boolean;
  signal?: AbortSignal;
}

export interface ResolveOptions {
  field?: string;
  signal?: AbortSignal;
}

/** A URL that passed every check, with the addresses it resolved to at that moment. */
export interface CheckedTarget {
  url: URL;
  addresses: string[];
}

/**
 * The outbound network policy of security.md section 1: one object shared by the API check, the
 * egress proxy and the guarded fetch, so the three can never disagree.
 */
export interface TargetPolicy {
  /** The API check: syntax, special names, DNS, every address. Throws `target_not_allowed`. */
  checkUrl(input: string, options?: CheckUrlOptions): Promise<CheckedTarget>;
  /** The checks that need no DNS (scheme, credentials, special names); for the guarded fetch. */
  parseUrl(input: string, options?: Omit<CheckUrlOptions, 'signal'>): URL;
  /**
   * Resolves once and checks every address and the port; returns the addresses to connect to
   * (IPv4-mapped ones unmapped). Throws `target_not_allowed`, or `target_unreachable` when DNS
   * fails.
   */
  resolveChecked(host: string, port: number, options?: ResolveOptions): Promise<string[]>;
}

const SCHEME_PREFIX = /^([a-z][a-z0-9+.-]*):/i;

/**
 * Host names refused before DNS (security.md section 1, item 1); `.invalid` never resolves
 * (RFC 6761), and is the name `html` documents are served under inside the browser.
 */
export function isSpecialHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return (
    name === 'localhost' ||
    name === 'metadata' ||
    name.endsWith('.localhost') ||
    name.endsWith('.internal') ||
    name.endsWith('.local') ||
    name === 'invalid' ||
    name.endsWith('.invalid') ||
    name.startsWith('metadata.')
  );
}

/** The port a URL connects to, with the scheme default filled in. */
export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function refuse(field: string, rule: string, reason: string): AppError {
  return new AppError('target_not_allowed', `${field} is not allowed: ${reason}`, {
    details: { field, rule },
  });
}

function withBareHostScheme(input: string): string {
  if (input.includes('://')) return input;
  const scheme = SCHEME_PREFIX.exec(input);
  // `localhost:3000` parses as scheme `localhost`; a digit after the colon means host:port.
  if (scheme && !/^\d/.test(input.slice(scheme[0].length))) return input;
  return `https://${input}`;
}

/** WHATWG host normalisation: punycode, lower case, and every IPv4 spelling to dotted decimal. */
function normalizeHost(host: string): string | undefined {
  const bracketed = !host.startsWith('[') && host.includes(':') ? `[${host}]` : host;
  try {
    const hostname = new URL(`http://${bracketed}/`).hostname;
    return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  } catch {
    return undefined;
  }
}

function withDeadline<T>(work: Promise<T>, timeoutMs: number, signal: AbortSignal | undefined): Promise<T> {
  const deadline = signal
    ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
    : AbortSignal.timeout(timeoutMs);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(deadline.reason);
    if (deadline.aborted) return onAbort();
    deadline.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener('abort', onAbort));
  });
}

/** Builds the policy from configuration; `resolver` defaults to the system resolver. */
export function createTargetPolicy(options: TargetPolicyOptions): TargetPolicy {
  const allowList: AllowList = createAllowList(options.allowTargets);
  const allowedPorts = new Set(options.allowedPorts);
  const resolver = options.resolver ?? createSystemResolver();
  const resolveTimeoutMs = options.resolveTimeoutMs ?? 5000;

  function parseUrl(input: string, opts: Omit<CheckUrlOptions, 'signal'> = {}): URL {
    const field = opts.field ?? 'url';
    const text = input.trim();
    let url: URL;
    try {
      url = new URL(opts.allowBareHost === false ? text : withBareHostScheme(text));
    } catch {
      throw invalidParam(field, 'Must be an absolute http or https URL.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw refuse(field, 'scheme', 'only http and https URLs are accepted.');
    }
    if (url.username !== '' || url.password !== '') {
      throw refuse(field, 'credentials', 'URLs with a user name or password are not accepted.');
    }
    if (url.hostname === '') throw invalidParam(field, 'Must be an absolute http or https URL.');
    if (isSpecialHostName(url.hostname) && !isAllowListedHost(url.hostname, allowList)) {
      throw refuse(field, 'host', 'local and internal host names cannot be reached.');
    }
    return url;
  }

  async function lookupAll(host: string, signal: AbortSignal | undefined): Promise<string[]> {
    let addresses: string[];
    try {
      addresses = await withDeadline(resolver.resolve(host), resolveTimeoutMs, signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw targetUnreachable(error);
    }
    if (addresses.length === 0) throw targetUnreachable(new Error(`no address for ${host}`));
    return addresses;
  }

  async function resolveChecked(host: string, port: number, opts: ResolveOptions = {}): Promise<string[]> {
    const field = opts.field ?? 'url';
    const hostname = normalizeHost(host);
    if (hostname === undefined || hostname === '') throw refuse(field, 'host', 'the host name is invalid.');
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw refuse(field, 'port', 'the port is invalid.');
    }
    const literal = parseIpLiteral(hostname);
    if (literal === undefined && isAllowListedHost(hostname, allowList)) {
      return [...new Set(await lookupAll(hostname, opts.signal))].map(
        (address) => parseIpLiteral(address)?.toString() ?? address,
      );
    }
    if (literal === undefined && isSpecialHostName(hostname)) {
      throw refuse(field, 'host', 'local and internal host names cannot be reached.');
    }
    const portOpen = allowedPorts.has(port);
    const portRefusal = () =>
      refuse(
        field,
        'port',
        `port ${port} is not open; allowed ports are ${[...allowedPorts].sort((a, b) => a - b).join(', ')}.`,
      );
    if (!portOpen && allowList.cidrs.length === 0) throw portRefusal();

    const addresses = literal !== undefined ? [hostname] : await lookupAll(hostname, opts.signal);
    const verdicts = addresses.map((address) => classifyAddress(address, allowList));
    if (verdicts.some((verdict) => !verdict.allowed)) {
      throw refuse(field, 'address', 'only public internet addresses can be reached.');
    }
    if (!portOpen && !verdicts.every((verdict) => verdict.range === 'allow-listed')) throw portRefusal();
    return [...new Set(verdicts.map((verdict) => verdict.address))];
  }

  async function checkUrl(input: string, opts: CheckUrlOptions = {}): Promise<CheckedTarget> {
    const url = parseUrl(input, opts);
    const addresses = await resolveChecked(url.hostname, effectivePort(url), {
      field: opts.field ?? 'url',
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return { url, addresses };
  }

  return { checkUrl, parseUrl, resolveChecked };
}
