import path from 'node:path';
import type { CreditPrices } from '@vitrine/contract';
import { aiSection } from './ai-section.ts';
import { browserSection } from './browser-section.ts';
import { networkSection } from './network-section.ts';
import { queueSection } from './queue-section.ts';
import {
  CONFIG_SECTIONS,
  creditsSection,
  limitsSection,
  secretsSection,
  serverSection,
  storesSection,
} from './schema.ts';
import { resolveStorage, type StorageConfig, storageProblems, storageSection } from './storage-section.ts';
import type { ConfigSection, ConfigVariable, SectionValues } from './variable.ts';

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface Config {
  server: SectionValues<typeof serverSection> & { publicUrl: string };
  limits: SectionValues<typeof limitsSection>;
  database: DatabaseConfig;
  redisUrl: string | undefined;
  redisPrefix: string;
  secrets: SectionValues<typeof secretsSection>;
  credits: SectionValues<typeof creditsSection>;
  /** Credit prices, from the `VITRINE_PRICE_*` settings. */
  prices: CreditPrices;
  storage: StorageConfig;
  network: SectionValues<typeof networkSection>;
  browser: SectionValues<typeof browserSection>;
  queue: SectionValues<typeof queueSection>;
  ai: SectionValues<typeof aiSection>;
}

/** Thrown when the environment is invalid; lists every bad variable with its expected form. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

function readSection<V extends Record<string, ConfigVariable<unknown>>>(
  env: Env,
  spec: ConfigSection<V>,
  problems: string[],
): SectionValues<ConfigSection<V>> {
  const values: Record<string, unknown> = {};
  for (const [key, variable] of Object.entries(spec.variables)) {
    const raw = env[variable.env];
    const input = raw === undefined || raw === '' ? variable.defaultText : raw;
    const parsed = variable.schema.safeParse(input);
    if (parsed.success) {
      values[key] = parsed.data;
    } else {
      const shown = raw === undefined ? '(unset)' : JSON.stringify(raw);
      problems.push(`${variable.env}: expected ${variable.form}, got ${shown}`);
    }
  }
  return values as SectionValues<ConfigSection<V>>;
}

function resolveDatabase(url: string | undefined, dataDir: string): DatabaseConfig {
  if (url === undefined) return { kind: 'sqlite', file: path.join(dataDir, 'vitrine.sqlite') };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) };
  }
  return { kind: 'postgres', url };
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Reads and validates the whole configuration. The only place that touches `process.env`;
 * every other module receives its part of the returned object.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const server = readSection(env, serverSection, problems);
  const limits = readSection(env, limitsSection, problems);
  const stores = readSection(env, storesSection, problems);
  const secrets = readSection(env, secretsSection, problems);
  const credits = readSection(env, creditsSection, problems);
  const network = readSection(env, networkSection, problems);
  const browser = readSection(env, browserSection, problems);
  const storage = readSection(env, storageSection, problems);
  const queue = readSection(env, queueSection, problems);
  const ai = readSection(env, aiSection, problems);
  problems.push(...storageProblems(storage));
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = path.resolve(server.dataDir);
  const publicUrl = (server.publicUrl ?? `http://${displayHost(server.host)}:${server.port}`).replace(
    /\/+$/,
    '',
  );
  return {
    server: { ...server, dataDir, publicUrl },
    limits,
    database: resolveDatabase(stores.databaseUrl, dataDir),
    redisUrl: stores.redisUrl,
    redisPrefix: stores.redisPrefix,
    secrets,
    credits,
    prices: {
      capture: credits.priceCapture,
      full_page: credits.priceFullPage,
      over_8_megapixels: credits.priceOver8Megapixels,
      raw: credits.priceRaw,
      ai_style: credits.priceAiStyle,
      ai_copy: credits.priceAiCopy,
      ai_brand: credits.priceAiBrand,
      video_second: credits.priceVideoSecond,
    },
    storage: resolveStorage(storage, dataDir),
    network,
    browser,
    queue,
    ai,
  };
}

/** Every variable of every section, for the generated docs. */
export function allConfigVariables(): { title: string; variables: ConfigVariable<unknown>[] }[] {
  return CONFIG_SECTIONS.map((s) => ({ title: s.title, variables: Object.values(s.variables) }));
}
