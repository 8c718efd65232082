import { type ApiClient, createApiClient } from './api-client.ts';
import { resolveSettings, type Settings } from './config-store.ts';
import { CliError, EXIT } from './exit-codes.ts';
import { createProgress, type Progress } from './progress.ts';

export type Env = Record<string, string | undefined>;

/** What every command works with; tests and the docs generator build their own. */
export interface CliContext {
  env: Env;
  version: string;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** Opens a URL or file in the user's browser or viewer; false when it could not. */
  open(target: string): Promise<boolean>;
}

export function userAgent(context: CliContext): string {
  return `vitrine-cli/${context.version} node/${process.versions.node}`;
}

export function settingsOf(context: CliContext, urlOverride?: string): Settings {
  return resolveSettings(context.env, urlOverride);
}

/** A client for the configured server; with `requireKey`, refuses to go on without a key. */
export function clientOf(
  context: CliContext,
  options: { requireKey?: boolean; url?: string } = {},
): ApiClient {
  const settings = settingsOf(context, options.url);
  if (options.requireKey !== false && !settings.apiKey) {
    throw new CliError(
      `Not signed in to ${settings.url}: run \`vitrine login\`, or set VITRINE_API_KEY`,
      EXIT.unauthorized,
    );
  }
  return createApiClient({ baseUrl: settings.url, apiKey: settings.apiKey, userAgent: userAgent(context) });
}

/** Writes a line (or a JSON document) to stdout. */
export function print(context: CliContext, value: string | object): void {
  context.stdout.write(typeof value === 'string' ? `${value}\n` : `${JSON.stringify(value, null, 2)}\n`);
}

export function progressOf(context: CliContext, quiet = false): Progress {
  const interactive = context.stderr.isTTY === true && !context.env.CI && context.env.TERM !== 'dumb';
  return createProgress(context.stderr, { interactive, quiet });
}
