import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.ts';
import { createTargetPolicy, type Resolver } from './target-policy.ts';
import { isTargetUnreachable } from './target-unreachable.ts';

/** A resolver answering from a table; never touches DNS. Records every lookup. */
function scriptedResolver(table: Record<string, string[] | string[][]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    resolve: async (hostname) => {
      calls.push(hostname);
      const entry = table[hostname];
      if (entry === undefined) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      if (Array.isArray(entry[0])) {
        const answers = entry as string[][];
        const count = calls.filter((c) => c === hostname).length;
        return answers[Math.min(count, answers.length) - 1] ?? [];
      }
      return entry as string[];
    },
  };
}

const resolver = scriptedResolver({
  'public.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'mixed.test': ['93.184.216.34', '10.0.0.5'],
  'mapped.test': ['::ffff:169.254.169.254'],
  'intranet.test': ['10.20.30.40'],
  'lab.test': ['10.1.2.3'],
  'empty.test': [],
});

const policy = createTargetPolicy({
  allowTargets: ['intranet.test', '10.1.0.0/16', '127.0.0.2'],
  allowedPorts: [80, 443],
  resolver,
});

async function refusal(input: string): Promise<AppError> {
  const error = await policy.checkUrl(input).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('checkUrl', () => {
  it('accepts a public URL and a bare host (https is added)', async () => {
    const plain = await policy.checkUrl('http://public.test/path?q=1');
    expect(plain.url.href).toBe('http://public.test/path?q=1');
    expect(plain.addresses).toEqual(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    const bare = await policy.checkUrl('public.test');
    expect(bare.url.href).toBe('https://public.test/');
  });

  const refused: [string, string][] = [
    ['http://127.1:8080/', 'address'],
    ['http://127.1/', 'address'],
    ['http://[::ffff:127.0.0.1]/', 'address'],
    ['http://[::1]/', 'address'],
    ['[::1]', 'address'],
    ['127.1:80', 'address'],
    ['http://0/', 'address'],
    ['http://2130706433/', 'address'],
    ['http://0x7f.1/', 'address'],
    ['http://0177.0.0.1/', 'address'],
    ['http://\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11/', 'address'],
    ['http://169.254.169.254/latest/meta-data/', 'address'],
    ['http://[fd00:ec2::254]/', 'address'],
    ['http://100.64.1.1/', 'address'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'address'],
    ['file:///etc/passwd', 'scheme'],
    ['view-source:http://public.test/', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['data:text/html,<h1>x</h1>', 'scheme'],
    ['ftp://public.test/', 'scheme'],
    ['ws://public.test/', 'scheme'],
    ['http://user:pass@public.test/', 'credentials'],
    ['http://user@public.test/', 'credentials'],
    ['http://public.test:8080/', 'port'],
    ['https://public.test:22/', 'port'],
    ['http://localhost/', 'host'],
    ['localhost:3000', 'host'],
    ['http://LOCALHOST./', 'host'],
    ['http://foo.localhost/', 'host'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'host'],
    ['http://metadata/', 'host'],
    ['http://printer.local/', 'host'],
    ['http://db.internal/', 'host'],
    ['http://html.vitrine.invalid/other', 'host'],
    ['http://mixed.test/', 'address'],
    ['http://mapped.test/', 'address'],
    ['http://10.2.0.1/', 'address'],
  ];
  it.each(refused)('refuses %s (%s)', async (input, rule) => {
    const error = await refusal(input);
    expect(error.code).toBe('target_not_allowed');
    expect(error.status).toBe(403);
    expect(error.details).toMatchObject({ field: 'url', rule });
    expect(error.message).not.toMatch(/\d+\.\d+\.\d+\.\d+|::/);
  });

  it('refuses a closed port before DNS when no address is allow-listed', async () => {
    const strict = scriptedResolver({ 'public.test': ['93.184.216.34'] });
    const closed = createTargetPolicy({ allowTargets: [], allowedPorts: [443], resolver: strict });
    await expect(closed.checkUrl('http://public.test/')).rejects.toMatchObject({
      details: { rule: 'port' },
      message: 'url is not allowed: port 80 is not open; allowed ports are 443.',
    });
    expect(strict.calls).toEqual([]);
  });

  it('never resolves special names or non-http schemes', async () => {
    const before = resolver.calls.length;
    await refusal('http://metadata.google.internal/');
    await refusal('http://foo.localhost/');
    await refusal('file:///etc/passwd');
    expect(resolver.calls.length).toBe(before);
  });

  it('opens any port on an allow-listed host name, IP or CIDR', async () => {
    await expect(policy.checkUrl('http://intranet.test:8443/')).resolves.toMatchObject({
      addresses: ['10.20.30.40'],
    });
    await expect(policy.checkUrl('http://127.0.0.2:3000/')).resolves.toMatchObject({
      addresses: ['127.0.0.2'],
    });
    await expect(policy.checkUrl('http://lab.test:9000/')).resolves.toMatchObject({
      addresses: ['10.1.2.3'],
    });
    await expect(policy.checkUrl('http://10.1.9.9/')).resolves.toBeDefined();
  });

  it('refuses a host that resolves to nothing or fails as unreachable, not as refused', async () => {
    for (const input of ['http://empty.test/', 'http://nxdomain.test/']) {
      const error = await refusal(input);
      expect(isTargetUnreachable(error)).toBe(true);
      expect(error.status).toBe(422);
    }
  });

  it('names the field and treats an unparsable URL as invalid_params', async () => {
    const error = await policy.checkUrl('http://localhost/', { field: 'background_image_url' }).then(
      () => undefined,
      (e: unknown) => e as AppError,
    );
    expect(error?.message).toMatch(/^background_image_url is not allowed/);
    const invalid = await refusal('http://exa mple.com/');
    expect(invalid.code).toBe('invalid_params');
  });

  it('does not add https to a bare host when the field must be absolute', () => {
    expect(() => policy.parseUrl('public.test', { allowBareHost: false })).toThrow(AppError);
  });
});

describe('resolveChecked', () => {
  it('checks what it resolves now, not what an earlier check saw (rebinding)', async () => {
    const rebinding = scriptedResolver({ 'rebind.test': [['93.184.216.34'], ['127.0.0.1']] });
    const guarded = createTargetPolicy({ allowTargets: [], allowedPorts: [80, 443], resolver: rebinding });
    await expect(guarded.checkUrl('http://rebind.test/')).resolves.toBeDefined();
    await expect(guarded.resolveChecked('rebind.test', 80)).rejects.toMatchObject({
      code: 'target_not_allowed',
    });
    expect(rebinding.calls).toEqual(['rebind.test', 'rebind.test']);
  });

  it('normalises bracketed and loose IPv4 hosts as a URL parser would', async () => {
    await expect(policy.resolveChecked('[::ffff:127.0.0.1]', 80)).rejects.toMatchObject({
      code: 'target_not_allowed',
    });
    await expect(policy.resolveChecked('0x7f.1', 80)).rejects.toMatchObject({ code: 'target_not_allowed' });
    await expect(policy.resolveChecked('::ffff:127.0.0.2', 5555)).resolves.toEqual(['127.0.0.2']);
  });

  it('gives up on DNS that does not answer in time', async () => {
    const hanging = createTargetPolicy({
      allowTargets: [],
      allowedPorts: [80],
      resolveTimeoutMs: 20,
      resolver: { resolve: () => new Promise<string[]>(() => {}) },
    });
    const error = await hanging.resolveChecked('slow.test', 80).catch((e: unknown) => e);
    expect(isTargetUnreachable(error)).toBe(true);
  });
});
