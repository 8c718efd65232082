import os from 'node:os';
import { type DeviceTokenResponse, SCOPES } from '@vitrine/contract';
import { type Command, Option } from 'commander';
import { ApiError, createApiClient } from '../api-client.ts';
import { type CliContext, clientOf, print, settingsOf, userAgent } from '../cli-context.ts';
import { configFile, removeStoredConfig, writeStoredConfig } from '../config-store.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { scopeList } from './account-commands.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How the approval page names this client: what it is and which machine it runs on. */
function clientName(version: string): string {
  const host = os
    .hostname()
    .replace(/[^\p{L}\p{N}\p{P}\p{Zs}]/gu, '')
    .slice(0, 60);
  return `vitrine CLI ${version}${host ? ` on ${host}` : ''}`;
}

interface LoginOptions {
  url?: string;
  scopes?: string;
  browser: boolean;
}

/**
 * The device flow: ask for a code, show it (and open the browser when there is one), poll at
 * the server's interval (growing it when told to slow down), store the key with mode 0600.
 */
async function login(context: CliContext, options: LoginOptions): Promise<void> {
  const settings = settingsOf(context, options.url);
  const scopes = scopeList(options.scopes);
  const client = createApiClient({ baseUrl: settings.url, userAgent: userAgent(context) });
  const { body: code } = await client.call('createDeviceCode', {
    body: { client_name: clientName(context.version), ...(scopes.length > 0 ? { scopes } : {}) },
  });
  const err = (line = '') => context.stderr.write(`${line}\n`);
  err(`To sign in, open ${code.verification_uri} and enter this code:`);
  err('');
  err(`    ${code.user_code}`);
  err('');
  err(`Or open ${code.verification_uri_complete}`);
  if (options.browser && context.stderr.isTTY && !context.env.CI) {
    if (await context.open(code.verification_uri_complete)) err('(Opened it in your browser.)');
  }
  err(
    `Waiting for approval; the code expires in ${Math.round(code.expires_in / 60)} minutes. Ctrl+C to stop.`,
  );

  const deadline = Date.now() + code.expires_in * 1000;
  let interval = code.interval;
  let networkFailures = 0;
  let granted: Extract<DeviceTokenResponse, { status: 'authorized' }> | undefined;
  while (!granted) {
    await sleep(interval * 1000);
    if (Date.now() > deadline)
      throw new CliError('The code expired; run `vitrine login` again', EXIT.loginFailed);
    try {
      const { body } = await client.call('pollDeviceToken', { body: { poll_token: code.poll_token } });
      networkFailures = 0;
      if (body.status === 'authorized') granted = body;
      else interval = body.interval;
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'slow_down' || error.code === 'rate_limited')) {
        interval = Math.max(interval + 5, error.retryAfter ?? 0);
        continue;
      }
      if (error instanceof ApiError && error.code === 'access_denied') {
        throw new CliError(
          'The login was denied in the browser; no key was created',
          EXIT.loginFailed,
          'access_denied',
        );
      }
      if (error instanceof ApiError && error.code === 'expired_token') {
        throw new CliError(
          'The code expired or was already used; run `vitrine login` again',
          EXIT.loginFailed,
          'expired_token',
        );
      }
      if (error instanceof CliError && error.exitCode === EXIT.unreachable && ++networkFailures < 5) continue;
      throw error;
    }
  }

  const file = writeStoredConfig(context.env, {
    url: settings.url,
    api_key: granted.api_key,
    key_id: granted.key_id,
    user_id: granted.user_id,
  });
  const account = await createApiClient({
    baseUrl: settings.url,
    apiKey: granted.api_key,
    userAgent: userAgent(context),
  }).call('getAccount');
  err(`Stored the key in ${file}`);
  print(
    context,
    `Signed in to ${settings.url} as ${account.body.user.email} (key ${account.body.key.prefix})`,
  );
}

async function logout(context: CliContext): Promise<void> {
  const settings = settingsOf(context);
  const stored = settings.stored;
  if (!stored) {
    print(context, 'Not signed in: no stored key.');
    if (context.env.VITRINE_API_KEY)
      print(context, 'VITRINE_API_KEY is set in the environment; unset it yourself.');
    return;
  }
  let revoked = false;
  if (stored.key_id) {
    try {
      const client = createApiClient({
        baseUrl: stored.url,
        apiKey: stored.api_key,
        userAgent: userAgent(context),
      });
      await client.call('revokeKey', { params: { id: stored.key_id } });
      revoked = true;
    } catch (error) {
      const unauthorized = error instanceof CliError && error.exitCode === EXIT.unauthorized;
      if (!unauthorized) {
        context.stderr.write(
          `Could not revoke the key on ${stored.url} (${(error as Error).message}); revoke ${stored.key_id} on your account page.\n`,
        );
      } else {
        revoked = true; // already revoked or unknown: nothing left to revoke
      }
    }
  }
  removeStoredConfig(context.env);
  print(
    context,
    `${revoked ? `Revoked key ${stored.key_id} and removed` : 'Removed'} it from ${configFile(context.env)}`,
  );
}

async function status(context: CliContext, options: { json?: boolean }): Promise<void> {
  const settings = settingsOf(context);
  if (!settings.apiKey) {
    if (options.json) print(context, { server: settings.url, signed_in: false });
    throw new CliError(
      `Not signed in to ${settings.url}: run \`vitrine login\`, or set VITRINE_API_KEY`,
      EXIT.unauthorized,
    );
  }
  const { body } = await clientOf(context).call('getAccount');
  if (options.json) {
    print(context, { server: settings.url, signed_in: true, key_source: settings.keySource, ...body });
    return;
  }
  const scopes = body.key.scopes.length === 0 ? 'all scopes' : body.key.scopes.join(', ');
  print(
    context,
    [
      `Server:   ${settings.url}`,
      `Account:  ${body.user.email} (${body.user.id})`,
      `Credits:  ${body.credits_remaining} left of ${body.credits_monthly} a month`,
      `Key:      ${body.key.prefix} "${body.key.label}" (${body.key.mode}, ${scopes}), from ${settings.keySource === 'config' ? configFile(context.env) : 'VITRINE_API_KEY'}`,
    ].join('\n'),
  );
}

export function addAuthCommands(program: Command, context: CliContext): void {
  program
    .command('login')
    .description('Sign in through the browser (device login) and store an API key for this server')
    .option(
      '--url <url>',
      'the Vitrine server (default: VITRINE_URL, the stored server, or http://127.0.0.1:8080)',
    )
    .addOption(new Option('--scopes <list>', `ask for fewer scopes, comma-separated: ${SCOPES.join(',')}`))
    .option('--no-browser', 'do not try to open the browser')
    .action((options: LoginOptions) => login(context, options));
  program
    .command('logout')
    .description('Revoke the stored key on the server and delete it from this machine')
    .action(() => logout(context));
  program
    .command('status')
    .description('Show the server, the account, its credits and the key in use')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) => status(context, options));
}
