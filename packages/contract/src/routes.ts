import type { z } from 'zod';
import {
  accountResponseSchema,
  createKeyBodySchema,
  createKeyResponseSchema,
  keyIdParamsSchema,
  keyListResponseSchema,
  keyResponseSchema,
} from './account.ts';
import {
  authProfileBodySchema,
  authProfileIdParamsSchema,
  authProfileListQuerySchema,
  authProfileListResponseSchema,
  authProfileResponseSchema,
  authProfileTestBodySchema,
  authProfileTestResponseSchema,
  deletedResponseSchema,
} from './auth-profiles.ts';
import { BACKGROUND_ROUTES } from './backgrounds.ts';
import { batchHeadersSchema, batchParamsSchema, batchRequestSchema, batchSchema } from './batches.ts';
import {
  captureQuerySchema,
  captureRequestSchema,
  captureResultSchema,
  rawCaptureRequestSchema,
} from './capture.ts';
import {
  deviceCodeRequestSchema,
  deviceCodeSchema,
  deviceTokenRequestSchema,
  deviceTokenResponseSchema,
} from './device.ts';
import { DEVICE_CATALOGUE_ROUTES } from './devices.ts';
import type { ErrorCode } from './errors.ts';
import { FONT_ROUTES } from './fonts.ts';
import { jobAcceptedSchema, jobParamsSchema, jobSchema } from './jobs.ts';
import {
  brandStatusResponseSchema,
  createProjectBodySchema,
  createProjectResponseSchema,
  projectIdParamsSchema,
  projectListResponseSchema,
  projectResponseSchema,
  rotateSigningSecretResponseSchema,
  signingSecretResponseSchema,
  successResponseSchema,
  updateProjectBodySchema,
} from './projects.ts';
import type { Scope } from './scopes.ts';
import { usageResponseSchema } from './usage.ts';

/** Who may call a route: a key with this scope, any valid key (`key`), or anyone (`public`). */
export type RouteAccess =
  | {
      kind: 'scope';
      scope: Scope;
      /** Also callable without a key through a signed URL (docs/api-decisions.md section 4). */
      signedUrl?: boolean;
    }
  | { kind: 'key' }
  | { kind: 'public' };

/** A success answer with bytes of one of `media` types, or a redirect to `Location`. */
export type NonJsonAnswer =
  | { status: number; description: string; media: readonly string[] }
  | { status: number; description: string; redirect: true };

/** What `GET /v1/capture` answers with `response=image`: the stored image as it was encoded. */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/webp', 'image/jpeg'] as const;

/** Which rate-limit bucket a route counts against (docs/api-decisions.md section 3). */
export type RateLimitBucket = 'capture' | 'default' | 'device_code' | 'none';

export interface RouteDefinition {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  tag: string;
  access: RouteAccess;
  rateLimit: RateLimitBucket;
  params?: z.ZodType;
  query?: z.ZodType;
  /** Request headers the route reads (e.g. `Idempotency-Key`), documented as header parameters. */
  headers?: z.ZodType;
  body?: z.ZodType;
  /** Success status and body schema. */
  success: { status: number; schema: z.ZodType; description: string };
  /** Other success answers (e.g. 202 when a capture is queued). */
  alternatives?: readonly { status: number; schema: z.ZodType; description: string }[];
  /** Success answers that are not JSON: image bytes, or a redirect (`Location`). */
  nonJsonAnswers?: readonly NonJsonAnswer[];
  /** Error codes this route can answer with, besides the ones every route shares. */
  errors: readonly ErrorCode[];
}

const scope = <S extends Scope>(s: S) => ({ kind: 'scope', scope: s }) as const;

/** Codes any authenticated route can answer with. */
export const AUTHENTICATED_ROUTE_ERRORS: readonly ErrorCode[] = [
  'unauthorized',
  'forbidden_scope',
  'rate_limited',
  'internal_error',
  'overloaded',
];

function defineRoutes<const T extends Record<string, RouteDefinition>>(routes: T): T {
  return routes;
}

/**
 * Every route of the API. The server registers a handler for each entry (and fails at start if
 * one is missing); the OpenAPI document and the CLI read the same table.
 */
const CAPTURE_ERRORS = [
  'invalid_params',
  'invalid_json',
  'payload_too_large',
  'auth_profile_mismatch',
  'insufficient_credits',
  'target_not_allowed',
  'not_found',
  'capture_failed',
  'overloaded',
] as const satisfies readonly ErrorCode[];

export const ROUTES = defineRoutes({
  ...BACKGROUND_ROUTES,
  ...FONT_ROUTES,
  ...DEVICE_CATALOGUE_ROUTES,
  createCapture: {
    operationId: 'createCapture',
    method: 'POST',
    path: '/v1/capture',
    summary: 'Capture a page, compose the styling around it, store the image and return its URL',
    tag: 'Capture',
    access: scope('capture'),
    rateLimit: 'capture',
    body: captureRequestSchema,
    success: { status: 201, schema: captureResultSchema, description: 'The capture result' },
    alternatives: [{ status: 202, schema: jobAcceptedSchema, description: 'Queued (`async: true`)' }],
    errors: CAPTURE_ERRORS,
  },
  getJob: {
    operationId: 'getJob',
    method: 'GET',
    path: '/v1/jobs/:id',
    summary: 'An asynchronous capture job: its status, result or error, and webhook delivery status',
    tag: 'Capture',
    access: scope('jobs'),
    rateLimit: 'default',
    params: jobParamsSchema,
    success: { status: 200, schema: jobSchema, description: 'The job' },
    errors: ['invalid_params', 'not_found'],
  },
  createBatch: {
    operationId: 'createBatch',
    method: 'POST',
    path: '/v1/batch',
    summary:
      '(ext) Many captures in one call, each item under every look; one batch id, credits reserved up front',
    tag: 'Capture',
    access: scope('capture'),
    rateLimit: 'capture',
    headers: batchHeadersSchema,
    body: batchRequestSchema,
    success: {
      status: 202,
      schema: batchSchema,
      description: 'The batch, queued (or the same batch again for a repeated `Idempotency-Key`)',
    },
    errors: [...CAPTURE_ERRORS, 'conflict'],
  },
  getBatch: {
    operationId: 'getBatch',
    method: 'GET',
    path: '/v1/batches/:id',
    summary: '(ext) A batch: its counts, and each render with its state, result or error',
    tag: 'Capture',
    access: scope('jobs'),
    rateLimit: 'default',
    params: batchParamsSchema,
    success: { status: 200, schema: batchSchema, description: 'The batch' },
    errors: ['invalid_params', 'not_found'],
  },
  getCapture: {
    operationId: 'getCapture',
    method: 'GET',
    path: '/v1/capture',
    summary: 'Query-string capture: bearer or api_key, or a signed URL (project_id, expires, signature)',
    tag: 'Capture',
    access: { kind: 'scope', scope: 'capture', signedUrl: true },
    rateLimit: 'capture',
    query: captureQuerySchema,
    success: { status: 201, schema: captureResultSchema, description: 'The capture result (response=json)' },
    alternatives: [
      { status: 202, schema: jobAcceptedSchema, description: 'Queued (`async: true` in `payload`)' },
    ],
    nonJsonAnswers: [
      { status: 200, description: '`response=image`: the image bytes', media: IMAGE_MEDIA_TYPES },
      { status: 302, description: '`response=redirect`: to the image URL', redirect: true },
    ],
    errors: [...CAPTURE_ERRORS, 'signature_invalid', 'signature_expired'],
  },
  createRawCapture: {
    operationId: 'createRawCapture',
    method: 'POST',
    path: '/v1/raw',
    summary: 'Capture a page without styling: the screenshot alone, stored, with its URL',
    tag: 'Capture',
    access: scope('raw'),
    rateLimit: 'capture',
    body: rawCaptureRequestSchema,
    success: { status: 201, schema: captureResultSchema, description: 'The capture result' },
    errors: [
      'invalid_params',
      'invalid_json',
      'payload_too_large',
      'auth_profile_mismatch',
      'insufficient_credits',
      'target_not_allowed',
      'not_found',
      'capture_failed',
      'overloaded',
    ],
  },
  createProject: {
    operationId: 'createProject',
    method: 'POST',
    path: '/v1/projects',
    summary: 'Create a project (returns its signing secret once)',
    tag: 'Projects',
    access: scope('projects'),
    rateLimit: 'default',
    body: createProjectBodySchema,
    success: { status: 201, schema: createProjectResponseSchema, description: 'The new project' },
    errors: ['invalid_params', 'invalid_json', 'payload_too_large', 'conflict'],
  },
  listProjects: {
    operationId: 'listProjects',
    method: 'GET',
    path: '/v1/projects',
    summary: "List the account's projects",
    tag: 'Projects',
    access: scope('projects'),
    rateLimit: 'default',
    success: { status: 200, schema: projectListResponseSchema, description: 'All projects, oldest first' },
    errors: [],
  },
  ensureDefaultProject: {
    operationId: 'ensureDefaultProject',
    method: 'POST',
    path: '/v1/projects/ensure-default',
    summary: 'Return the default project, creating "Default project" if there is none',
    tag: 'Projects',
    access: scope('projects'),
    rateLimit: 'default',
    success: { status: 200, schema: projectResponseSchema, description: 'The default project' },
    errors: [],
  },
  getProject: {
    operationId: 'getProject',
    method: 'GET',
    path: '/v1/projects/:id',
    summary: 'Read a project',
    tag: 'Projects',
    access: scope('projects'),
    rateLimit: 'default',
    params: projectIdParamsSchema,
    success: { status: 200, schema: projectResponseSchema, description: 'The project' },
    errors: ['not_found', 'invalid_params'],
  },
  updateProject: {
    operationId: 'updateProject',
    method: 'PATCH',
    path: '/v1/projects/:id',
    summary: "Change a project's name or domain",
    tag: 'Projects',
    access: scope('projects'),
    rateLimit: 'default',
    params: projectIdParamsSchema,
    body: updateProjectBodySchema,
    success: { status: 200, schema: projectResponseSchema, description: 'The updated project' },
    errors: ['invalid_params', 'invalid_json', 'payload_too_large', 'not_found', 'conflict'],
  },
  makeProjectDefault: {
    operationId: 'makeProjectDefault',
    method: 'POST',
    path: '/v1/projects/:id/default',
    summary: 'Make a project the default project',
    tag: 'Projects',
    access: scope('projects'),
    rateLimit: 'default',
    params: projectIdParamsSchema,
    success: { status: 200, schema: successResponseSchema, description: 'Done' },
    errors: ['not_found', 'invalid_params'],
  },
  getProjectBrandStatus: {
    operationId: 'getProjectBrandStatus',
    method: 'GET',
    path: '/v1/projects/:id/brand/status',
    summary: "A project's brand extraction status and brand data",
    tag: 'Projects',
    access: scope('projects'),
    rateLimit: 'default',
    params: projectIdParamsSchema,
    success: { status: 200, schema: brandStatusResponseSchema, description: 'Status and brand' },
    errors: ['not_found', 'invalid_params'],
  },
  refreshProjectBrand: {
    operationId: 'refreshProjectBrand',
    method: 'POST',
    path: '/v1/projects/:id/brand/refresh',
    summary: "(ext) Re-run the project's brand extraction; 202 with brand_status pending",
    tag: 'Projects',
    access: scope('projects'),
    rateLimit: 'default',
    params: projectIdParamsSchema,
    success: { status: 202, schema: projectResponseSchema, description: 'Extraction queued' },
    errors: ['not_found', 'invalid_params'],
  },
  getProjectSigningSecret: {
    operationId: 'getProjectSigningSecret',
    method: 'GET',
    path: '/v1/projects/:id/signing-secret',
    summary:
      "A project's current signing secret, and the `whsec_` form a Standard Webhooks verifier takes (the default project's too)",
    tag: 'Projects',
    access: scope('projects'),
    rateLimit: 'default',
    params: projectIdParamsSchema,
    success: { status: 200, schema: signingSecretResponseSchema, description: 'The secret' },
    errors: ['not_found', 'invalid_params'],
  },
  rotateProjectSigningSecret: {
    operationId: 'rotateProjectSigningSecret',
    method: 'POST',
    path: '/v1/projects/:id/signing-secret/rotate',
    summary: 'Issue a new signing secret; the previous one stays valid for 24 hours',
    tag: 'Projects',
    access: scope('projects'),
    rateLimit: 'default',
    params: projectIdParamsSchema,
    success: { status: 200, schema: rotateSigningSecretResponseSchema, description: 'The new secret' },
    errors: ['not_found', 'invalid_params'],
  },
  getUsage: {
    operationId: 'getUsage',
    method: 'GET',
    path: '/v1/usage',
    summary: 'Credits remaining and usage over the last 30 days',
    tag: 'Account',
    access: scope('usage'),
    rateLimit: 'default',
    success: { status: 200, schema: usageResponseSchema, description: 'Usage' },
    errors: [],
  },
  createDeviceCode: {
    operationId: 'createDeviceCode',
    method: 'POST',
    path: '/v1/device/code',
    summary: 'Start a device login: a code for the user to approve at the verification address',
    tag: 'Device login',
    access: { kind: 'public' },
    rateLimit: 'device_code',
    body: deviceCodeRequestSchema,
    success: { status: 201, schema: deviceCodeSchema, description: 'The device code' },
    errors: ['invalid_params', 'invalid_json', 'payload_too_large'],
  },
  pollDeviceToken: {
    operationId: 'pollDeviceToken',
    method: 'POST',
    path: '/v1/device/token',
    summary: 'Poll a device login: pending, or the API key once the user approved it',
    tag: 'Device login',
    access: { kind: 'public' },
    rateLimit: 'default',
    body: deviceTokenRequestSchema,
    success: { status: 200, schema: deviceTokenResponseSchema, description: 'Pending, or authorized' },
    errors: [
      'invalid_params',
      'invalid_json',
      'payload_too_large',
      'expired_token',
      'access_denied',
      'slow_down',
    ],
  },
  getAccount: {
    operationId: 'getAccount',
    method: 'GET',
    path: '/v1/account',
    summary: "The caller's account, credits and key",
    tag: 'Account',
    access: { kind: 'key' },
    rateLimit: 'default',
    success: { status: 200, schema: accountResponseSchema, description: 'The account' },
    errors: [],
  },
  listKeys: {
    operationId: 'listKeys',
    method: 'GET',
    path: '/v1/keys',
    summary: "List the account's API keys (never the keys themselves)",
    tag: 'Account',
    access: scope('keys'),
    rateLimit: 'default',
    success: { status: 200, schema: keyListResponseSchema, description: 'Every key, oldest first' },
    errors: [],
  },
  createKey: {
    operationId: 'createKey',
    method: 'POST',
    path: '/v1/keys',
    summary: "Create a live API key with at most the caller's scopes (shown once)",
    tag: 'Account',
    access: scope('keys'),
    rateLimit: 'default',
    body: createKeyBodySchema,
    success: { status: 201, schema: createKeyResponseSchema, description: 'The new key' },
    errors: ['invalid_params', 'invalid_json', 'payload_too_large'],
  },
  revokeKey: {
    operationId: 'revokeKey',
    method: 'DELETE',
    path: '/v1/keys/:id',
    summary: 'Revoke an API key at once',
    tag: 'Account',
    access: scope('keys'),
    rateLimit: 'default',
    params: keyIdParamsSchema,
    success: { status: 200, schema: keyResponseSchema, description: 'The revoked key' },
    errors: ['invalid_params', 'not_found'],
  },
  createAuthProfile: {
    operationId: 'createAuthProfile',
    method: 'POST',
    path: '/v1/auth-profiles',
    summary: 'Store cookies and localStorage for a domain (encrypted), for captures behind a login',
    tag: 'Auth profiles',
    access: scope('auth_profiles'),
    rateLimit: 'default',
    body: authProfileBodySchema,
    success: { status: 201, schema: authProfileResponseSchema, description: 'The new profile' },
    errors: ['invalid_params', 'invalid_json', 'payload_too_large', 'not_found'],
  },
  listAuthProfiles: {
    operationId: 'listAuthProfiles',
    method: 'GET',
    path: '/v1/auth-profiles',
    summary: "List the account's auth profiles (optionally of one project)",
    tag: 'Auth profiles',
    access: scope('auth_profiles'),
    rateLimit: 'default',
    query: authProfileListQuerySchema,
    success: { status: 200, schema: authProfileListResponseSchema, description: 'Profiles, oldest first' },
    errors: ['invalid_params', 'not_found'],
  },
  getAuthProfile: {
    operationId: 'getAuthProfile',
    method: 'GET',
    path: '/v1/auth-profiles/:id',
    summary: 'Read an auth profile (never its cookie values)',
    tag: 'Auth profiles',
    access: scope('auth_profiles'),
    rateLimit: 'default',
    params: authProfileIdParamsSchema,
    success: { status: 200, schema: authProfileResponseSchema, description: 'The profile' },
    errors: ['invalid_params', 'not_found'],
  },
  updateAuthProfile: {
    operationId: 'updateAuthProfile',
    method: 'PATCH',
    path: '/v1/auth-profiles/:id',
    summary: 'Change a profile: new cookies or storage replace the stored ones; name, domain, project',
    tag: 'Auth profiles',
    access: scope('auth_profiles'),
    rateLimit: 'default',
    params: authProfileIdParamsSchema,
    body: authProfileBodySchema,
    success: { status: 200, schema: authProfileResponseSchema, description: 'The updated profile' },
    errors: ['invalid_params', 'invalid_json', 'payload_too_large', 'not_found'],
  },
  deleteAuthProfile: {
    operationId: 'deleteAuthProfile',
    method: 'DELETE',
    path: '/v1/auth-profiles/:id',
    summary: 'Delete an auth profile and its stored cookies',
    tag: 'Auth profiles',
    access: scope('auth_profiles'),
    rateLimit: 'default',
    params: authProfileIdParamsSchema,
    success: { status: 200, schema: deletedResponseSchema, description: 'Deleted' },
    errors: ['invalid_params', 'not_found'],
  },
  testAuthProfile: {
    operationId: 'testAuthProfile',
    method: 'POST',
    path: '/v1/auth-profiles/:id/test',
    summary: 'Load a page with the profile: ok when it answers below 400 and a profile cookie was sent',
    tag: 'Auth profiles',
    access: scope('auth_profiles'),
    rateLimit: 'capture',
    params: authProfileIdParamsSchema,
    body: authProfileTestBodySchema,
    success: { status: 200, schema: authProfileTestResponseSchema, description: 'The test result' },
    errors: [
      'invalid_params',
      'invalid_json',
      'payload_too_large',
      'not_found',
      'auth_profile_mismatch',
      'target_not_allowed',
      'capture_failed',
      'overloaded',
    ],
  },
});

export type RouteId = keyof typeof ROUTES;
