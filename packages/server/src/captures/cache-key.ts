import crypto from 'node:crypto';
import { stableJson } from '@vitrine/contract';
import { type ResolvedCapture, resolvedParamsOf } from './resolved-capture.ts';

/**
 * The result-cache key of a capture: a hash of its kind, its project and its effective
 * (resolved) parameters, so two requests that differ only in spelling (`example.com` vs
 * `https://example.com/`, an explicit default) share a result, and the same page under two
 * projects does not (docs/api-decisions.md section 9). The account is the lookup's other half
 * (CapturesRepository.findReusable), so results are never shared across accounts. An auth
 * profile's id and version are part of it: new cookies render anew (docs/api-decisions.md section 4).
 */
export function cacheKeyOf(capture: ResolvedCapture): string {
  return crypto
    .createHash('sha256')
    .update(
      `${capture.kind}\nproject:${capture.projectId ?? ''}\n${authPart(capture)}${stableJson(resolvedParamsOf(capture))}`,
    )
    .digest('hex');
}

/** The auth profile's part of a key; empty without one, so other keys stay as they were. */
function authPart(capture: ResolvedCapture): string {
  const profile = capture.authProfile;
  return profile ? `auth:${profile.id}:${profile.version}\n` : '';
}

/**
 * The capture-level cache key of a capture's page: the target and browser fields only (the look
 * does not change what the page shows), the auth profile's id and version, and the account, so
 * one account never reuses another's page.
 */
export function pageKeyOf(capture: ResolvedCapture, userId: string): string {
  return crypto
    .createHash('sha256')
    .update(`page\n${userId}\n${authPart(capture)}${stableJson(capture.page)}`)
    .digest('hex');
}
