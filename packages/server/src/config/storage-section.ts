import path from 'node:path';
import { z } from 'zod';
import { blobKeyProblem } from '../storage/blob-key.ts';
import type { S3BlobStoreOptions } from '../storage/s3-blob-store.ts';
import { bool, optionalString } from './parsers.ts';
import { type SectionValues, section, variable } from './variable.ts';

const BUCKET_FORM = 'an S3 bucket name (3 to 63 lowercase letters, digits, dots and hyphens)';

export const storageSection = section('Storage', {
  kind: variable({
    env: 'VITRINE_STORAGE',
    schema: z.enum(['local', 's3']),
    form: 'local or s3',
    description:
      'Where rendered images are stored: `local` (files under `{VITRINE_DATA_DIR}/blobs`) or `s3` (an S3-compatible object store, needed when several processes serve images).',
    defaultText: 'local',
  }),
  s3Bucket: variable({
    env: 'VITRINE_S3_BUCKET',
    schema: optionalString.pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/)
        .optional(),
    ),
    form: BUCKET_FORM,
    description: 'Bucket holding the images. Required when VITRINE_STORAGE=s3.',
  }),
  s3Region: variable({
    env: 'VITRINE_S3_REGION',
    schema: z.string().regex(/^[a-z0-9-]{1,64}$/),
    form: 'a region name such as us-east-1 (S3-compatible stores usually accept any)',
    description: 'Region of the bucket.',
    defaultText: 'us-east-1',
  }),
  s3Endpoint: variable({
    env: 'VITRINE_S3_ENDPOINT',
    schema: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    form: 'an absolute http(s) URL, e.g. http://minio:9000',
    description: 'Base URL of an S3-compatible store (MinIO, R2, Ceph...). Unset: AWS S3.',
  }),
  s3AccessKeyId: variable({
    env: 'VITRINE_S3_ACCESS_KEY_ID',
    schema: optionalString,
    form: 'an access key id',
    description:
      "Access key of the store, with VITRINE_S3_SECRET_ACCESS_KEY. Both unset: the AWS SDK's default credential chain (instance or task role, web identity).",
  }),
  s3SecretAccessKey: variable({
    env: 'VITRINE_S3_SECRET_ACCESS_KEY',
    schema: optionalString,
    form: 'a secret access key',
    description: 'Secret of VITRINE_S3_ACCESS_KEY_ID.',
  }),
  s3ForcePathStyle: variable({
    env: 'VITRINE_S3_FORCE_PATH_STYLE',
    schema: bool,
    form: 'true or false',
    description:
      'Address objects as `endpoint/bucket/key` instead of `bucket.endpoint/key`; most self-hosted stores (MinIO) need true.',
    defaultText: 'false',
  }),
  s3Prefix: variable({
    env: 'VITRINE_S3_PREFIX',
    schema: optionalString
      .transform((v) => v?.replace(/^\/+|\/+$/g, '') || undefined)
      .refine((v) => v === undefined || blobKeyProblem(v) === undefined),
    form: 'a key prefix of /-separated segments of letters, digits, ".", "_" and "-", e.g. vitrine/prod',
    description: 'Prepended to every object key, so several installations can share a bucket.',
  }),
});

export type StorageSectionValues = SectionValues<typeof storageSection>;

/** Where blobs live, as the composition root needs it to pick and build the store. */
export type StorageConfig = { kind: 'local'; root: string } | ({ kind: 's3' } & S3BlobStoreOptions);

/** Problems spanning several variables, in the same `VARIABLE: expected ...` form as the others. */
export function storageProblems(values: Partial<StorageSectionValues>): string[] {
  const problems: string[] = [];
  if (values.kind === 's3' && values.s3Bucket === undefined) {
    problems.push(`VITRINE_S3_BUCKET: expected ${BUCKET_FORM} when VITRINE_STORAGE=s3, got (unset)`);
  }
  const hasId = values.s3AccessKeyId !== undefined;
  const hasSecret = values.s3SecretAccessKey !== undefined;
  if (hasId && !hasSecret) {
    problems.push(
      'VITRINE_S3_SECRET_ACCESS_KEY: expected a secret access key when VITRINE_S3_ACCESS_KEY_ID is set, got (unset)',
    );
  }
  if (hasSecret && !hasId) {
    problems.push(
      'VITRINE_S3_ACCESS_KEY_ID: expected an access key id when VITRINE_S3_SECRET_ACCESS_KEY is set, got (unset)',
    );
  }
  return problems;
}

/** The storage configuration from validated values; local blobs go to `{dataDir}/blobs`. */
export function resolveStorage(values: StorageSectionValues, dataDir: string): StorageConfig {
  if (values.kind === 'local') return { kind: 'local', root: path.join(dataDir, 'blobs') };
  return {
    kind: 's3',
    bucket: values.s3Bucket!,
    region: values.s3Region,
    forcePathStyle: values.s3ForcePathStyle,
    ...(values.s3Endpoint === undefined ? {} : { endpoint: values.s3Endpoint }),
    ...(values.s3AccessKeyId === undefined || values.s3SecretAccessKey === undefined
      ? {}
      : { credentials: { accessKeyId: values.s3AccessKeyId, secretAccessKey: values.s3SecretAccessKey } }),
    ...(values.s3Prefix === undefined ? {} : { prefix: values.s3Prefix }),
  };
}
