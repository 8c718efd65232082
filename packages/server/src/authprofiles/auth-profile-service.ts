import type { AuthProfile, AuthProfileBody, AuthProfileStatus } from '@vitrine/contract';
import { type Clock, isoNow } from '../clock.ts';
import type { AuthProfileRow, AuthProfilesRepository } from '../db/auth-profiles-repository.ts';
import { AppError, notFound } from '../errors/app-error.ts';
import { newId } from '../ids.ts';
import type { SealedBox } from '../secrets/sealed-box.ts';
import {
  cookiesExpireAt,
  domainCovers,
  mergeProfileInputs,
  type ProfileState,
  profileDomain,
  refilterState,
} from './profile-state.ts';

/** What a capture or a test loads into a browser context; lives only for that run. */
export interface AuthState {
  profileId: string;
  version: number;
  state: ProfileState;
}

/** The reference a ResolvedCapture carries: never the cookies themselves. */
export interface AuthProfileRef {
  id: string;
  version: number;
}

/** The page-loading part of a test, supplied by app.ts (the browser pool behind the egress proxy). */
export type AuthProbe = (
  url: string,
  auth: AuthState,
  signal: AbortSignal,
) => Promise<{ httpStatus: number | null; cookiesSent: number; finalUrl: string | null }>;

export interface AuthProfileServiceDeps {
  profiles: AuthProfilesRepository;
  sealedBox: SealedBox;
  clock: Clock;
  /** The caller's project by id, or undefined (unknown, or another account's). */
  findProject(userId: string, projectId: string): Promise<unknown>;
}

const LAST_USED_RESOLUTION_MS = 60_000;

export function profileStatus(row: AuthProfileRow, nowIso: string): AuthProfileStatus {
  if (row.last_test_ok === 0) return 'failing';
  if (row.cookies_expire_at !== null && row.cookies_expire_at <= nowIso) return 'expired';
  return 'active';
}

export function toAuthProfile(row: AuthProfileRow, nowIso: string): AuthProfile {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    domain: row.domain,
    cookie_count: row.cookie_count,
    status: profileStatus(row, nowIso),
    last_used_at: row.last_used_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function authProfileMismatch(id: string, domain: string, host: string): AppError {
  return new AppError(
    'auth_profile_mismatch',
    `Auth profile ${id} is for ${domain}; it does not cover ${host}. Capture a page on ${domain} or one of its subdomains, or use a profile for ${host}`,
    { details: { auth_profile_id: id, domain, host } },
  );
}

const hasStateInput = (body: AuthProfileBody) =>
  body.cookie_header !== undefined ||
  body.storage_state !== undefined ||
  body.cookies !== undefined ||
  body.origins !== undefined;

/**
 * Auth profiles of one account (docs/api-decisions.md section 8): inputs merged and checked, the state
 * sealed with the profile id as additional data, status kept true, and the checks and state a
 * capture needs. Cookie values never leave this module except into a browser context.
 */
export function createAuthProfileService(deps: AuthProfileServiceDeps) {
  const { profiles, sealedBox, clock } = deps;

  async function findOrThrow(userId: string, id: string): Promise<AuthProfileRow> {
    const row = await profiles.find(userId, id);
    if (!row) throw notFound(`Auth profile ${id}`);
    return row;
  }

  async function checkProject(userId: string, projectId: string | undefined): Promise<void> {
    if (projectId !== undefined && !(await deps.findProject(userId, projectId))) {
      throw notFound(`Project ${projectId}`);
    }
  }

  function openState(row: AuthProfileRow): ProfileState {
    try {
      return JSON.parse(sealedBox.open(row.state_sealed, row.id)) as ProfileState;
    } catch (cause) {
      // A record that does not open was tampered with or sealed under another key: say so
      // without any of its content.
      throw new AppError('internal_error', `Auth profile ${row.id} could not be decrypted`, { cause });
    }
  }

  function sealedColumns(id: string, state: ProfileState) {
    return {
      state_sealed: sealedBox.seal(JSON.stringify(state), id),
      cookie_count: state.cookies.length,
      cookies_expire_at: cookiesExpireAt(state),
    };
  }

  async function create(userId: string, body: AuthProfileBody) {
    const domain = profileDomain(body.domain);
    const { state, warnings } = mergeProfileInputs(domain, body);
    await checkProject(userId, body.project_id);
    const now = isoNow(clock);
    const id = newId('authProfile');
    const row: AuthProfileRow = {
      id,
      user_id: userId,
      project_id: body.project_id ?? null,
      name: body.name ?? domain,
      domain,
      ...sealedColumns(id, state),
      version: 1,
      last_test_ok: null,
      last_used_at: null,
      created_at: now,
      updated_at: now,
    };
    await profiles.insert(row);
    return { profile: toAuthProfile(row, now), warnings };
  }

  /**
   * New cookies or storage (any of the four sources) replace the stored state; without them the
   * stored state is kept, re-checked against the domain. Every change makes a new version, so
   * captures with the profile render anew, and forgets the last test's verdict.
   */
  async function update(userId: string, id: string, body: AuthProfileBody) {
    const row = await findOrThrow(userId, id);
    const domain = profileDomain(body.domain);
    const merged = hasStateInput(body)
      ? mergeProfileInputs(domain, body)
      : refilterState(openState(row), domain);
    await checkProject(userId, body.project_id);
    const now = isoNow(clock);
    const patch = {
      domain,
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.project_id === undefined ? {} : { project_id: body.project_id }),
      ...sealedColumns(id, merged.state),
      version: row.version + 1,
      last_test_ok: null,
      updated_at: now,
    };
    if (!(await profiles.update(userId, id, patch))) throw notFound(`Auth profile ${id}`);
    return { profile: toAuthProfile({ ...row, ...patch }, now), warnings: merged.warnings };
  }

  async function list(userId: string, projectId?: string): Promise<AuthProfile[]> {
    await checkProject(userId, projectId);
    const now = isoNow(clock);
    return (await profiles.list(userId, projectId)).map((row) => toAuthProfile(row, now));
  }

  async function remove(userId: string, id: string): Promise<void> {
    if (!(await profiles.delete(userId, id))) throw notFound(`Auth profile ${id}`);
  }

  /**
   * A capture's check, before any work or credit: the caller's profile (404 otherwise) whose
   * domain covers the URL's host (400 `auth_profile_mismatch`). Returns the reference the
   * ResolvedCapture carries.
   */
  async function resolveForCapture(userId: string, id: string, url: URL): Promise<AuthProfileRef> {
    const row = await findOrThrow(userId, id);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!domainCovers(row.domain, host)) throw authProfileMismatch(id, row.domain, host);
    return { id: row.id, version: row.version };
  }

  /**
   * The state a run loads, fetched by id at run time (a queued job holds only the reference).
   * A profile deleted since the capture was accepted fails the capture (a 404, which a job does
   * not retry) rather than render without the login.
   */
  async function loadForRun(userId: string, ref: AuthProfileRef): Promise<AuthState> {
    const row = await profiles.find(userId, ref.id);
    if (!row) throw new AppError('not_found', `Auth profile ${ref.id} was deleted before the capture ran`);
    return { profileId: row.id, version: row.version, state: openState(row) };
  }

  /** A capture's use: `last_used_at` is kept to the minute, so busy profiles are not a write per capture. */
  async function markUsed(userId: string, id: string): Promise<void> {
    const now = clock();
    const minuteAgo = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
    await profiles.markUsed(userId, id, now.toISOString(), undefined, minuteAgo);
  }

  /**
   * POST /{id}/test: loads `url` with the profile through `probe`; ok when the page answered
   * below 400 and carried at least one profile cookie. A page that fails to render is a failed
   * test, not an error of the request; a target that cannot be reached is 422 `target_unreachable`. `checkTarget` (the network policy's DNS check, 403) runs
   * after the domain check, as for a capture.
   */
  async function test(
    userId: string,
    id: string,
    url: URL,
    probe: AuthProbe,
    signal: AbortSignal,
    checkTarget: () => Promise<unknown>,
  ) {
    const ref = await resolveForCapture(userId, id, url);
    const auth = await loadForRun(userId, ref);
    await checkTarget();
    let httpStatus: number | null = null;
    let cookiesSent = 0;
    let finalUrl: string | null = null;
    try {
      ({ httpStatus, cookiesSent, finalUrl } = await probe(url.href, auth, signal));
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'capture_failed')) throw error;
      // A target that could not be reached (refused by the network policy or down: one answer)
      // says nothing about the login, so it is the request's 422 and the profile stays as it was.
      if (error.details?.reason === 'target_unreachable') throw error;
    }
    const ok = httpStatus !== null && httpStatus < 400 && cookiesSent > 0;
    await profiles.markUsed(userId, id, isoNow(clock), { ok, version: auth.version });
    const row = await findOrThrow(userId, id);
    return {
      ok,
      cookie_count: row.cookie_count,
      status: profileStatus(row, isoNow(clock)),
      http_status: httpStatus,
      cookies_sent: cookiesSent,
      final_url: finalUrl,
    };
  }

  return {
    create,
    update,
    list,
    remove,
    get: async (userId: string, id: string) => toAuthProfile(await findOrThrow(userId, id), isoNow(clock)),
    resolveForCapture,
    loadForRun,
    markUsed,
    test,
  };
}

export type AuthProfileService = ReturnType<typeof createAuthProfileService>;
