import fs from 'node:fs';
import path from 'node:path';
import envPaths from 'env-paths';
import { z } from 'zod';
import { CliError, EXIT } from './exit-codes.ts';

/** Where `vitrine` points when nothing says otherwise: a server started with `make start`. */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:8080';

const storedConfigSchema = z.object({
  url: z.string(),
  api_key: z.string(),
  key_id: z.string().optional(),
  user_id: z.string().optional(),
});
export type StoredConfig = z.infer<typeof storedConfigSchema>;

type Env = Record<string, string | undefined>;

/** The directory of the config file: VITRINE_CONFIG_DIR, else the platform's user config dir. */
export function configDir(env: Env): string {
  return env.VITRINE_CONFIG_DIR || envPaths('vitrine', { suffix: '' }).config;
}

export function configFile(env: Env): string {
  return path.join(configDir(env), 'config.json');
}

export function readStoredConfig(env: Env): StoredConfig | undefined {
  let text: string;
  try {
    text = fs.readFileSync(configFile(env), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = storedConfigSchema.safeParse(safeJson(text));
  if (!parsed.success) {
    throw new CliError(
      `The config file ${configFile(env)} is damaged; run vitrine logout, then vitrine login`,
      EXIT.usage,
    );
  }
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Stores the key readable by the user alone: the directory 0700, the file 0600, written to a
 * temporary file first and renamed, so a crash never leaves half a file.
 */
export function writeStoredConfig(env: Env, config: StoredConfig): string {
  const dir = configDir(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = configFile(env);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
  return file;
}

export function removeStoredConfig(env: Env): boolean {
  try {
    fs.unlinkSync(configFile(env));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

export interface Settings {
  url: string;
  apiKey: string | undefined;
  /** Where the key came from, for `vitrine status`. */
  keySource: 'VITRINE_API_KEY' | 'config' | 'none';
  stored: StoredConfig | undefined;
}

function normalizeUrl(url: string, from: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`${from} must be an http(s) URL like ${DEFAULT_SERVER_URL}, got "${url}"`, EXIT.usage);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(`${from} must be an http(s) URL, got "${url}"`, EXIT.usage);
  }
  return parsed.href.replace(/\/+$/, '');
}

/**
 * The server and key to use: VITRINE_URL and VITRINE_API_KEY win over the stored config. A
 * stored key is only sent to the server it came from, never to another VITRINE_URL.
 */
export function resolveSettings(env: Env, urlOverride?: string): Settings {
  const stored = readStoredConfig(env);
  const url = urlOverride
    ? normalizeUrl(urlOverride, '--url')
    : env.VITRINE_URL
      ? normalizeUrl(env.VITRINE_URL, 'VITRINE_URL')
      : (stored?.url ?? DEFAULT_SERVER_URL);
  if (env.VITRINE_API_KEY) return { url, apiKey: env.VITRINE_API_KEY, keySource: 'VITRINE_API_KEY', stored };
  if (stored && stored.url === url) return { url, apiKey: stored.api_key, keySource: 'config', stored };
  return { url, apiKey: undefined, keySource: 'none', stored };
}
