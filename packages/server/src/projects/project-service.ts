import crypto from 'node:crypto';
import type { Brand, BrandStatus, CreateProjectBody, Project, UpdateProjectBody } from '@vitrine/contract';
import type { BrandStarter } from '../brand/brand-starter.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { ProjectRow, ProjectsRepository } from '../db/projects-repository.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { AppError, notFound } from '../errors/app-error.ts';
import { newId } from '../ids.ts';
import type { SealedBox } from '../secrets/sealed-box.ts';
import { normalizeDomain } from './domain-name.ts';

/** The previous signing secret stays valid this long after a rotation. */
export const SIGNING_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
const DEFAULT_PROJECT_NAME = 'Default project';

export function generateSigningSecret(): string {
  return `vss_${crypto.randomBytes(32).toString('base64url')}`;
}

export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    domain: row.domain,
    brand: row.brand === null ? null : (JSON.parse(row.brand) as Brand),
    brand_status: row.brand_status as BrandStatus,
    brand_error: row.brand_error,
    is_default: row.is_default === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function duplicateDomain(domain: string): AppError {
  return new AppError('conflict', `You already have a project for domain ${domain}`, {
    details: { field: 'domain', domain },
  });
}

export interface ProjectServiceDeps {
  projects: ProjectsRepository;
  sealedBox: SealedBox;
  clock: Clock;
  /** Queues brand extraction when a project gets a domain (create, PATCH, refresh). */
  brand?: BrandStarter;
}

/** Projects of one account: creation with a signing secret, default handling, secret rotation. */
export function createProjectService(deps: ProjectServiceDeps) {
  const { projects, sealedBox, clock } = deps;

  async function findOrThrow(userId: string, id: string): Promise<ProjectRow> {
    const row = await projects.find(userId, id);
    if (!row) throw notFound(`Project ${id}`);
    return row;
  }

  /**
   * `defaultMode` `replace` makes the new project the default (demoting the old one);
   * `if-none` makes it the default only if the account has none, failing on the unique index
   * otherwise, so concurrent ensure-default calls cannot create two.
   */
  async function create(
    userId: string,
    body: CreateProjectBody,
    defaultMode: 'replace' | 'if-none' | 'no' = body.make_default ? 'replace' : 'no',
  ): Promise<{ project: Project; signingSecret: string }> {
    const domain = body.domain === undefined ? null : normalizeDomain(body.domain);
    const now = isoNow(clock);
    const id = newId('project');
    const signingSecret = generateSigningSecret();
    const brandStatus: BrandStatus = !body.start_brand_extract
      ? 'none'
      : domain === null
        ? 'skipped'
        : 'pending';
    const row: ProjectRow = {
      id,
      user_id: userId,
      name: body.name ?? domain ?? 'Untitled project',
      domain,
      brand: null,
      brand_status: brandStatus,
      brand_error: null,
      is_default: 0,
      signing_secret_sealed: sealedBox.seal(signingSecret, id),
      previous_signing_secret_sealed: null,
      previous_signing_secret_expires_at: null,
      created_at: now,
      updated_at: now,
    };
    try {
      if (defaultMode === 'replace') {
        await projects.insertAsDefault(row);
        row.is_default = 1;
      } else {
        row.is_default = defaultMode === 'if-none' ? 1 : 0;
        await projects.insert(row);
      }
    } catch (error) {
      if (isUniqueViolation(error) && domain !== null) throw duplicateDomain(domain);
      throw error;
    }
    if (brandStatus === 'pending' && domain !== null) await deps.brand?.start(userId, id, domain);
    return { project: toProject(row), signingSecret };
  }

  async function update(userId: string, id: string, body: UpdateProjectBody): Promise<Project> {
    await findOrThrow(userId, id);
    const domain =
      body.domain === undefined || body.domain === null ? body.domain : normalizeDomain(body.domain);
    try {
      await projects.update(userId, id, {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(domain === undefined ? {} : { domain }),
        updated_at: isoNow(clock),
      });
    } catch (error) {
      if (isUniqueViolation(error) && domain) throw duplicateDomain(domain);
      throw error;
    }
    // A new domain restarts extraction; removing it leaves nothing to extract.
    if (domain) return queued(userId, await findOrThrow(userId, id), domain, false);
    if (domain === null) {
      await projects.update(userId, id, { brand: null, brand_status: 'skipped', brand_error: null });
    }
    return toProject(await findOrThrow(userId, id));
  }

  /** Re-runs extraction (POST /v1/projects/{id}/brand/refresh), bypassing the 7-day cache. */
  async function refreshBrand(userId: string, id: string): Promise<Project> {
    const row = await findOrThrow(userId, id);
    if (row.domain === null) {
      throw new AppError('invalid_params', 'The project has no domain to extract a brand from', {
        details: { issues: [{ path: 'domain', message: 'Set a domain with PATCH first' }] },
      });
    }
    return queued(userId, row, row.domain, true);
  }

  /**
   * Queues extraction and answers with the project as queued (`pending`): a fast worker may
   * already have moved it on by the time it is read back, and the answer says what was done.
   */
  async function queued(userId: string, row: ProjectRow, domain: string, force: boolean): Promise<Project> {
    await deps.brand?.start(userId, row.id, domain, force);
    return toProject({ ...row, brand_status: 'pending', brand_error: null, updated_at: isoNow(clock) });
  }

  async function makeDefault(userId: string, id: string): Promise<void> {
    if (!(await projects.setDefault(userId, id, isoNow(clock)))) throw notFound(`Project ${id}`);
  }

  /** The default project, created on first use; concurrent callers end with the same one. */
  async function ensureDefault(userId: string): Promise<Project> {
    const existing = await projects.findDefault(userId);
    if (existing) return toProject(existing);
    try {
      await create(userId, { name: DEFAULT_PROJECT_NAME, start_brand_extract: true }, 'if-none');
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const created = await projects.findDefault(userId);
    if (!created) throw new AppError('internal_error', 'Could not create the default project');
    return toProject(created);
  }

  async function rotateSigningSecret(
    userId: string,
    id: string,
  ): Promise<{ signingSecret: string; previousExpiresAt: string }> {
    const row = await findOrThrow(userId, id);
    const now = clock();
    const signingSecret = generateSigningSecret();
    const previousExpiresAt = new Date(now.getTime() + SIGNING_SECRET_OVERLAP_MS).toISOString();
    await projects.update(userId, id, {
      signing_secret_sealed: sealedBox.seal(signingSecret, id),
      previous_signing_secret_sealed: row.signing_secret_sealed,
      previous_signing_secret_expires_at: previousExpiresAt,
      updated_at: now.toISOString(),
    });
    return { signingSecret, previousExpiresAt };
  }

  /**
   * The current signing secret, for its owner (scope `projects`): the default project is made
   * without one being shown, and a webhook verifier needs it. Reading it does not rotate it.
   */
  async function signingSecret(userId: string, id: string): Promise<string> {
    const row = await findOrThrow(userId, id);
    return sealedBox.open(row.signing_secret_sealed, row.id);
  }

  /**
   * The secrets that currently verify signatures for a project: the current one, and the
   * previous one during its overlap window.
   */
  function validSigningSecrets(row: ProjectRow): string[] {
    const secrets = [sealedBox.open(row.signing_secret_sealed, row.id)];
    if (
      row.previous_signing_secret_sealed !== null &&
      row.previous_signing_secret_expires_at !== null &&
      row.previous_signing_secret_expires_at > isoNow(clock)
    ) {
      secrets.push(sealedBox.open(row.previous_signing_secret_sealed, row.id));
    }
    return secrets;
  }

  return {
    create,
    update,
    makeDefault,
    ensureDefault,
    rotateSigningSecret,
    signingSecret,
    refreshBrand,
    validSigningSecrets,
    get: async (userId: string, id: string) => toProject(await findOrThrow(userId, id)),
    list: async (userId: string) => (await projects.list(userId)).map(toProject),
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
