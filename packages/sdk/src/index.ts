export {
  type Answer,
  HttpTransport,
  queryString,
  type SendOptions,
  type TransportOptions,
} from './http-transport.ts';
export { DEFAULT_RETRY, parseRetryAfter, type RetryOptions, retryDelayMs } from './retry.ts';
export { canonicalString, type SignCaptureUrlOptions, signCaptureUrl } from './signed-url.ts';
export type * from './types.ts';
export { type CallOptions, Vitrine, type VitrineOptions, type WaitOptions } from './vitrine-client.ts';
export { type ClientErrorCode, VitrineError } from './vitrine-error.ts';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  WebhookVerificationError,
  webhookSecret,
} from './webhooks.ts';
