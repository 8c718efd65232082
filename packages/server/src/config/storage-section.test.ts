import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config.ts';

const base = { VITRINE_DATA_DIR: '/tmp/vitrine-data' };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('storage configuration', () => {
  it('defaults to local blobs under the data dir', () => {
    expect(loadConfig(base).storage).toEqual({
      kind: 'local',
      root: path.resolve('/tmp/vitrine-data/blobs'),
    });
  });

  it('reads a complete S3 configuration', () => {
    const config = loadConfig({
      ...base,
      VITRINE_STORAGE: 's3',
      VITRINE_S3_BUCKET: 'shots.example',
      VITRINE_S3_REGION: 'eu-west-3',
      VITRINE_S3_ENDPOINT: 'http://minio:9000',
      VITRINE_S3_ACCESS_KEY_ID: 'AKIA1',
      VITRINE_S3_SECRET_ACCESS_KEY: 'secret',
      VITRINE_S3_FORCE_PATH_STYLE: 'true',
      VITRINE_S3_PREFIX: '/vitrine/prod/',
    });
    expect(config.storage).toEqual({
      kind: 's3',
      bucket: 'shots.example',
      region: 'eu-west-3',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'secret' },
      prefix: 'vitrine/prod',
    });
  });

  it('uses the default region and credential chain when those are unset', () => {
    const config = loadConfig({ ...base, VITRINE_STORAGE: 's3', VITRINE_S3_BUCKET: 'shots' });
    expect(config.storage).toEqual({
      kind: 's3',
      bucket: 'shots',
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });

  it('names the variable and the expected form for every mistake', () => {
    expect(problemsOf({ VITRINE_STORAGE: 's3' })).toEqual([
      expect.stringMatching(/^VITRINE_S3_BUCKET: expected an S3 bucket name .* when VITRINE_STORAGE=s3/),
    ]);
    expect(problemsOf({ VITRINE_STORAGE: 'gcs' })).toEqual([
      'VITRINE_STORAGE: expected local or s3, got "gcs"',
    ]);
    expect(problemsOf({ VITRINE_STORAGE: 's3', VITRINE_S3_BUCKET: 'Bad_Bucket' })[0]).toMatch(
      /^VITRINE_S3_BUCKET: expected an S3 bucket name/,
    );
    expect(problemsOf({ VITRINE_S3_ENDPOINT: 'minio:9000' })[0]).toMatch(
      /^VITRINE_S3_ENDPOINT: expected an absolute/,
    );
    expect(problemsOf({ VITRINE_S3_FORCE_PATH_STYLE: 'maybe' })[0]).toMatch(
      /^VITRINE_S3_FORCE_PATH_STYLE: expected true or false/,
    );
    expect(problemsOf({ VITRINE_S3_PREFIX: 'a/../b' })[0]).toMatch(
      /^VITRINE_S3_PREFIX: expected a key prefix/,
    );
    expect(problemsOf({ VITRINE_S3_ACCESS_KEY_ID: 'AKIA1' })).toEqual([
      expect.stringMatching(
        /^VITRINE_S3_SECRET_ACCESS_KEY: expected .* when VITRINE_S3_ACCESS_KEY_ID is set/,
      ),
    ]);
    expect(problemsOf({ VITRINE_S3_SECRET_ACCESS_KEY: 'x' })).toEqual([
      expect.stringMatching(/^VITRINE_S3_ACCESS_KEY_ID: expected/),
    ]);
  });
});
