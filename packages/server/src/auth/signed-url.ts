import crypto from 'node:crypto';
import { canonicalString, idPattern } from '@vitrine/contract';
import type { Clock } from '../clock.ts';
import type { ProjectRow } from '../db/projects-repository.ts';
import { AppError } from '../errors/app-error.ts';

export function signCanonical(secret: string, canonical: string): string {
  return crypto.createHmac('sha256', secret).update(canonical).digest('hex');
}

const EXPIRES_PATTERN = /^[0-9]{1,12}$/;
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;

function invalid(message: string): AppError {
  return new AppError('signature_invalid', message);
}

export interface SignedUrlDeps {
  findProject(id: string): Promise<ProjectRow | undefined>;
  /** The project's secrets that verify right now (current, and previous during its overlap). */
  validSecrets(project: ProjectRow): string[];
  clock: Clock;
  maxTtlSeconds: number;
}

/**
 * Verifies a signed request and returns the project it is signed for. Strict on every input:
 * `expires` must be plain digits, the signature 64 lowercase hex characters, compared in
 * constant time against each valid secret.
 */
export function createSignedUrlVerifier(deps: SignedUrlDeps) {
  return async function verify(
    method: string,
    path: string,
    pairs: ReadonlyMap<string, string>,
  ): Promise<ProjectRow> {
    const projectId = pairs.get('project_id');
    const expires = pairs.get('expires');
    const signature = pairs.get('signature');
    if (projectId === undefined || expires === undefined || signature === undefined) {
      throw invalid('A signed URL needs project_id, expires and signature');
    }
    if (!EXPIRES_PATTERN.test(expires)) throw invalid('expires must be a unix time in whole seconds');
    const nowSeconds = Math.floor(deps.clock().getTime() / 1000);
    const expiresAt = Number(expires);
    if (expiresAt < nowSeconds) throw new AppError('signature_expired', 'This signed URL has expired');
    if (expiresAt > nowSeconds + deps.maxTtlSeconds) {
      throw invalid(`expires is more than ${deps.maxTtlSeconds} seconds ahead`);
    }
    if (!SIGNATURE_PATTERN.test(signature))
      throw invalid('signature must be 64 lowercase hexadecimal characters');
    if (!idPattern('project').test(projectId)) throw invalid('The signature does not match');
    const project = await deps.findProject(projectId);
    if (!project) throw invalid('The signature does not match');
    const canonical = canonicalString(method, path, pairs);
    const given = Buffer.from(signature, 'hex');
    const matches = deps.validSecrets(project).some((secret) => {
      const expected = Buffer.from(signCanonical(secret, canonical), 'hex');
      return expected.length === given.length && crypto.timingSafeEqual(expected, given);
    });
    if (!matches) throw invalid('The signature does not match');
    return project;
  };
}

export type SignedUrlVerifier = ReturnType<typeof createSignedUrlVerifier>;
