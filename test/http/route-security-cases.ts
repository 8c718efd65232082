import type { RouteId } from '@vitrine/contract';
import type { TestApp, TestKey } from '../support/test-app.ts';

/**
 * Per-route data of the route-table-driven security suite (route-security.test.ts). The generic
 * checks (no key, malformed key, revoked key, missing scope, unknown fields, wrong types,
 * oversized body) are derived from the contract's route table; what the table cannot know lives
 * here, one entry per route:
 *
 * - `valid`: a request the owner may make, which succeeds. The generic checks start from it and
 *   break one thing at a time, so a wrong `valid` would make them meaningless: the suite checks
 *   that it succeeds first.
 * - `foreign`: the same route aimed at another account's resource (its id in the path, or in the
 *   body or query), which must answer 404 `not_found`; or `{ none: why }` when the route names no
 *   account's resource.
 *
 * A route of the table without an entry here fails the suite: adding a route means adding its
 * entry (a few lines, usually a `valid` body and the id it takes).
 */
export interface SecurityWorld {
  t: TestApp;
  /** Full access, with credits. */
  owner: TestKey;
  /** Another account, full access, with credits. */
  other: TestKey;
  /** A page on the loopback fixture server that captures may load. */
  pageUrl: string;
}

export interface RouteRequest {
  /** Path parameters (`:id` -> value). */
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

export interface RouteCase {
  valid(world: SecurityWorld): Promise<RouteRequest>;
  foreign: ((world: SecurityWorld) => Promise<RouteRequest>) | { none: string };
}

async function call(world: SecurityWorld, key: TestKey, method: string, url: string, json?: unknown) {
  const res = await world.t.request(method, url, { key: key.key, ...(json === undefined ? {} : { json }) });
  if (res.status >= 300) throw new Error(`${method} ${url} for a case: ${res.status} ${res.text}`);
  return res.json;
}

/** A fresh project of `key`'s account. */
export async function projectOf(world: SecurityWorld, key: TestKey): Promise<string> {
  const created = await call(world, key, 'POST', '/v1/projects', { start_brand_extract: false });
  return created.project.id;
}

/** A queued capture job of `key`'s account (the test app consumes no jobs). */
export async function jobOf(world: SecurityWorld, key: TestKey): Promise<string> {
  const accepted = await call(world, key, 'POST', '/v1/capture', { url: world.pageUrl, async: true });
  return accepted.job_id;
}

/** A batch of `key`'s account. */
export async function batchOf(world: SecurityWorld, key: TestKey): Promise<string> {
  const accepted = await call(world, key, 'POST', '/v1/batch', { items: [world.pageUrl] });
  return accepted.id;
}

/** A fresh key id of `key`'s account. */
export async function keyIdOf(world: SecurityWorld, key: TestKey): Promise<string> {
  const created = await call(world, key, 'POST', '/v1/keys', { label: 'security case' });
  return created.key.id;
}

/** A fresh auth profile of `key`'s account, for the fixture server's host. */
export async function authProfileOf(world: SecurityWorld, key: TestKey): Promise<string> {
  const created = await call(world, key, 'POST', '/v1/auth-profiles', {
    name: 'security case',
    domain: new URL(world.pageUrl).hostname,
    cookie_header: 'sid=security-case',
  });
  return created.profile.id;
}

const byAuthProfileId = (world: SecurityWorld, key: TestKey) =>
  authProfileOf(world, key).then((id) => ({ params: { id } }));

const byProjectId = (world: SecurityWorld, key: TestKey) =>
  projectOf(world, key).then((id) => ({ params: { id } }));

/** A project with a domain (brand refresh needs one); its extraction is only queued here. */
const byDomainProjectId = (world: SecurityWorld, key: TestKey) =>
  call(world, key, 'POST', '/v1/projects', {
    domain: `security-${Math.random().toString(36).slice(2, 10)}.example`,
    start_brand_extract: false,
  }).then((created) => ({ params: { id: created.project.id as string } }));

const NO_ACCOUNT_IDS = { none: 'names no resource of an account' };

export const ROUTE_SECURITY_CASES: Partial<Record<RouteId, RouteCase>> = {
  listBackgrounds: { valid: async () => ({ query: { limit: '2' } }), foreign: NO_ACCOUNT_IDS },
  listBackgroundPacks: { valid: async () => ({ query: { theme: 'dark' } }), foreign: NO_ACCOUNT_IDS },
  listFonts: { valid: async () => ({}), foreign: NO_ACCOUNT_IDS },
  listDevices: { valid: async () => ({}), foreign: NO_ACCOUNT_IDS },
  createCapture: {
    valid: async (w) => ({ body: { url: w.pageUrl, async: true, padding: 8 } }),
    foreign: async (w) => ({
      body: { url: w.pageUrl, async: true, project_id: await projectOf(w, w.other) },
    }),
  },
  getCapture: {
    valid: async (w) => ({ query: { url: w.pageUrl, width: '320', height: '240', format: 'jpg' } }),
    foreign: async (w) => ({ query: { url: w.pageUrl, project_id: await projectOf(w, w.other) } }),
  },
  createBatch: {
    valid: async (w) => ({ body: { items: [w.pageUrl], defaults: { padding: 8 } } }),
    foreign: async (w) => ({
      body: { items: [w.pageUrl], defaults: { project_id: await projectOf(w, w.other) } },
    }),
  },
  getBatch: {
    valid: async (w) => ({ params: { id: await batchOf(w, w.owner) } }),
    foreign: async (w) => ({ params: { id: await batchOf(w, w.other) } }),
  },
  getJob: {
    valid: async (w) => ({ params: { id: await jobOf(w, w.owner) } }),
    foreign: async (w) => ({ params: { id: await jobOf(w, w.other) } }),
  },
  createRawCapture: {
    valid: async (w) => ({ body: { url: w.pageUrl, viewport: { width: 320, height: 240 } } }),
    foreign: { none: 'a raw capture takes no project or other id' },
  },
  createProject: {
    valid: async () => ({ body: { name: 'Security case', start_brand_extract: false } }),
    foreign: NO_ACCOUNT_IDS,
  },
  listProjects: { valid: async () => ({}), foreign: NO_ACCOUNT_IDS },
  ensureDefaultProject: { valid: async () => ({}), foreign: NO_ACCOUNT_IDS },
  getProject: { valid: (w) => byProjectId(w, w.owner), foreign: (w) => byProjectId(w, w.other) },
  updateProject: {
    valid: async (w) => ({ ...(await byProjectId(w, w.owner)), body: { name: 'Renamed' } }),
    foreign: async (w) => ({ ...(await byProjectId(w, w.other)), body: { name: 'Renamed' } }),
  },
  makeProjectDefault: { valid: (w) => byProjectId(w, w.owner), foreign: (w) => byProjectId(w, w.other) },
  getProjectBrandStatus: { valid: (w) => byProjectId(w, w.owner), foreign: (w) => byProjectId(w, w.other) },
  refreshProjectBrand: {
    valid: (w) => byDomainProjectId(w, w.owner),
    foreign: (w) => byDomainProjectId(w, w.other),
  },
  rotateProjectSigningSecret: {
    valid: (w) => byProjectId(w, w.owner),
    foreign: (w) => byProjectId(w, w.other),
  },
  getProjectSigningSecret: {
    valid: (w) => byProjectId(w, w.owner),
    foreign: (w) => byProjectId(w, w.other),
  },
  getUsage: { valid: async () => ({}), foreign: NO_ACCOUNT_IDS },
  createDeviceCode: {
    valid: async () => ({ body: { client_name: 'security suite' } }),
    foreign: NO_ACCOUNT_IDS,
  },
  pollDeviceToken: {
    valid: async (w) => {
      const res = await w.t.request('POST', '/v1/device/code', { json: {} });
      return { body: { poll_token: res.json.poll_token } };
    },
    foreign: { none: 'a poll token is a bearer secret, not an account id' },
  },
  getAccount: { valid: async () => ({}), foreign: NO_ACCOUNT_IDS },
  listKeys: { valid: async () => ({}), foreign: NO_ACCOUNT_IDS },
  createKey: {
    valid: async () => ({ body: { label: 'security case', scopes: ['usage'] } }),
    foreign: NO_ACCOUNT_IDS,
  },
  revokeKey: {
    valid: async (w) => ({ params: { id: await keyIdOf(w, w.owner) } }),
    foreign: async (w) => ({ params: { id: await keyIdOf(w, w.other) } }),
  },
  createAuthProfile: {
    valid: async (w) => ({
      body: { name: 'Security case', domain: new URL(w.pageUrl).hostname, cookie_header: 'sid=1' },
    }),
    foreign: async (w) => ({
      body: {
        domain: new URL(w.pageUrl).hostname,
        cookie_header: 'sid=1',
        project_id: await projectOf(w, w.other),
      },
    }),
  },
  listAuthProfiles: {
    valid: async () => ({}),
    foreign: async (w) => ({ query: { project_id: await projectOf(w, w.other) } }),
  },
  getAuthProfile: { valid: (w) => byAuthProfileId(w, w.owner), foreign: (w) => byAuthProfileId(w, w.other) },
  updateAuthProfile: {
    valid: async (w) => ({
      ...(await byAuthProfileId(w, w.owner)),
      body: { domain: new URL(w.pageUrl).hostname, cookie_header: 'sid=2' },
    }),
    foreign: async (w) => ({
      ...(await byAuthProfileId(w, w.other)),
      body: { domain: new URL(w.pageUrl).hostname, cookie_header: 'sid=2' },
    }),
  },
  deleteAuthProfile: {
    valid: (w) => byAuthProfileId(w, w.owner),
    foreign: (w) => byAuthProfileId(w, w.other),
  },
  testAuthProfile: {
    valid: async (w) => ({ ...(await byAuthProfileId(w, w.owner)), body: { url: w.pageUrl } }),
    foreign: async (w) => ({ ...(await byAuthProfileId(w, w.other)), body: { url: w.pageUrl } }),
  },
};
