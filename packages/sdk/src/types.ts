import type { components, operations } from './generated/openapi-types.ts';

type Schemas = components['schemas'];

/** The JSON request body of an operation of the API. */
export type RequestBody<O extends keyof operations> = operations[O] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The JSON answer of an operation with a given status. */
export type JsonAnswer<O extends keyof operations, S extends number> =
  operations[O]['responses'] extends Record<S, { content: { 'application/json': infer B } }> ? B : never;

/** The query parameters of an operation. */
export type QueryOf<O extends keyof operations> = operations[O]['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;

export type CaptureRequest = Schemas['CaptureRequestInput'];
export type RawCaptureRequest = Schemas['RawCaptureRequestInput'];
export type CaptureResult = Schemas['CaptureResult'];
export type CaptureQuery = QueryOf<'getCapture'>;
export type JobAccepted = Schemas['JobAccepted'];
export type Job = Schemas['Job'];
export type Project = Schemas['Project'];
export type Brand = Schemas['Brand'];
export type CreateProjectRequest = RequestBody<'createProject'>;
export type CreatedProject = JsonAnswer<'createProject', 201>;
export type UpdateProjectRequest = RequestBody<'updateProject'>;
export type BrandStatus = JsonAnswer<'getProjectBrandStatus', 200>;
export type RotatedSigningSecret = JsonAnswer<'rotateProjectSigningSecret', 200>;
export type AuthProfile = Schemas['AuthProfile'];
export type AuthProfileRequest = Schemas['AuthProfileRequestInput'];
export type AuthProfileAnswer = JsonAnswer<'createAuthProfile', 201>;
export type AuthProfileTestResult = JsonAnswer<'testAuthProfile', 200>;
export type ApiKey = Schemas['ApiKey'];
export type CreateKeyRequest = Schemas['CreateKeyRequestInput'];
export type CreatedKey = JsonAnswer<'createKey', 201>;
export type Account = Schemas['Account'];
export type Usage = Schemas['Usage'];
export type BackgroundListQuery = QueryOf<'listBackgrounds'>;
export type BackgroundPacksQuery = QueryOf<'listBackgroundPacks'>;
export type BackgroundList = JsonAnswer<'listBackgrounds', 200>;
export type BackgroundPack = Schemas['BackgroundPack'];
export type DeviceCode = Schemas['DeviceCode'];
export type DeviceTokenResponse = Schemas['DeviceTokenResponse'];
/** The error envelope of every 4xx and 5xx answer. */
export type ErrorEnvelope = Schemas['Error'];
/** A `code` of the API's error envelope (docs/errors.md lists them). */
export type ApiErrorCode = ErrorEnvelope['error']['code'];

/** The body POSTed to a job's `webhook_url` (docs/api-decisions.md section 5). */
export type WebhookPayload =
  | { job_id: string; status: 'completed'; result: CaptureResult }
  | { job_id: string; status: 'failed'; error: string };
