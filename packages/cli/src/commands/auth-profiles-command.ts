import fs from 'node:fs';
import { type AuthProfile, type AuthProfileBody, authProfileBodySchema, idPattern } from '@vitrine/contract';
import type { Command } from 'commander';
import { type CliContext, clientOf, print } from '../cli-context.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { formatTable } from '../table.ts';
import { captureStorageStateInBrowser } from './browser-login.ts';

function checkProfileId(id: string): void {
  if (!idPattern('authProfile').test(id)) {
    throw new CliError(
      `Invalid auth profile id "${id}": ids look like ap_ followed by 26 letters and digits`,
      EXIT.usage,
    );
  }
}

function describeProfile(profile: AuthProfile): string {
  return [
    `Profile:   ${profile.id}`,
    `Name:      ${profile.name}`,
    `Domain:    ${profile.domain}`,
    `Project:   ${profile.project_id ?? 'none'}`,
    `Cookies:   ${profile.cookie_count}`,
    `Status:    ${profile.status}`,
    `Last used: ${profile.last_used_at ?? 'never'}`,
    `Created:   ${profile.created_at}`,
  ].join('\n');
}

function readStorageState(file: string): AuthProfileBody['storage_state'] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`Cannot read ${file}`, EXIT.usage);
  }
  try {
    return JSON.parse(text) as AuthProfileBody['storage_state'];
  } catch {
    throw new CliError(
      `${file} is not JSON: expected a Playwright storage state (cookies, origins)`,
      EXIT.usage,
    );
  }
}

/** Checks a body locally (the same schema the server uses), naming the flag or file field. */
function profileBody(input: Record<string, unknown>): AuthProfileBody {
  const parsed = authProfileBodySchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CliError(`Invalid ${issue.path.join('.') || 'input'}: ${issue.message}`, EXIT.usage);
  }
  return parsed.data;
}

interface SaveOptions {
  domain: string;
  project?: string;
  name?: string;
  json?: boolean;
}

/** Creates the profile and says what was kept (never a cookie value). */
async function saveProfile(
  context: CliContext,
  options: SaveOptions,
  storageState: AuthProfileBody['storage_state'],
): Promise<void> {
  const body = profileBody({
    domain: options.domain,
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.project !== undefined ? { project_id: options.project } : {}),
    storage_state: storageState,
  });
  const { body: answer } = await clientOf(context).call('createAuthProfile', { body });
  if (options.json) return print(context, answer);
  for (const warning of answer.warnings ?? []) context.stderr.write(`warning: ${warning}\n`);
  print(context, describeProfile(answer.profile));
}

export function addAuthProfilesCommand(program: Command, context: CliContext): void {
  const profiles = program
    .command('auth-profiles')
    .description('Auth profiles: stored cookies and localStorage, for captures of pages behind a login');

  profiles
    .command('import')
    .description('Create a profile from a Playwright storage-state file (context.storageState())')
    .argument('<storage-state.json>', 'a JSON file with cookies and origins')
    .requiredOption('--domain <domain>', 'the host the profile logs into; its subdomains are covered too')
    .option('--project <id>', 'the project it belongs to (prj_...)')
    .option('--name <name>', 'default: the domain')
    .option('--json', 'print JSON')
    .action(async (file: string, options: SaveOptions) => {
      await saveProfile(context, options, readStorageState(file));
    });

  profiles
    .command('ls')
    .description("List the account's auth profiles")
    .option('--project <id>', "only this project's profiles")
    .option('--json', 'print JSON')
    .action(async (options: { project?: string; json?: boolean }) => {
      const { body } = await clientOf(context).call('listAuthProfiles', {
        query: { project_id: options.project },
      });
      if (options.json) return print(context, body);
      if (body.profiles.length === 0)
        return print(
          context,
          'No auth profiles yet: vitrine auth login --url <login page>, or vitrine auth-profiles import',
        );
      const rows = body.profiles.map((p) => [
        p.id,
        p.name,
        p.domain,
        String(p.cookie_count),
        p.status,
        p.last_used_at ?? 'never',
      ]);
      print(context, formatTable(['ID', 'NAME', 'DOMAIN', 'COOKIES', 'STATUS', 'LAST USED'], rows));
    });

  profiles
    .command('get')
    .description('Show a profile (never its cookie values)')
    .argument('<id>', 'ap_...')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      checkProfileId(id);
      const { body } = await clientOf(context).call('getAuthProfile', { params: { id } });
      print(context, options.json ? body : describeProfile(body.profile));
    });

  profiles
    .command('test')
    .description('Load a page with the profile: ok when it answers below 400 and a profile cookie was sent')
    .argument('<id>', 'ap_...')
    .requiredOption('--url <url>', 'a page on the profile domain')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { url: string; json?: boolean }) => {
      checkProfileId(id);
      const { body } = await clientOf(context).call('testAuthProfile', {
        params: { id },
        body: { url: options.url },
      });
      if (options.json) print(context, body);
      else
        print(
          context,
          `${body.ok ? 'ok' : 'FAILED'}: HTTP ${body.http_status ?? 'no answer'}, ${body.cookies_sent} of ${body.cookie_count} cookies sent; status ${body.status}${body.final_url && body.final_url !== new URL(options.url).href ? `; ended at ${body.final_url}` : ''}`,
        );
      if (!body.ok) throw new CliError(`The profile did not sign in to ${options.url}`, EXIT.captureFailed);
    });

  profiles
    .command('rm')
    .description('Delete a profile and its stored cookies')
    .argument('<id>', 'ap_...')
    .action(async (id: string) => {
      checkProfileId(id);
      await clientOf(context).call('deleteAuthProfile', { params: { id } });
      print(context, `Deleted ${id}`);
    });
}

interface BrowserLoginOptions {
  url: string;
  domain?: string;
  project?: string;
  name?: string;
  untilUrl?: string;
  json?: boolean;
}

/** `vitrine auth login --url`: sign in in a real browser window, save what it holds as a profile. */
export function addAuthLoginCommand(program: Command, context: CliContext): void {
  const auth = program
    .command('auth')
    .description('Sign in to a website in a browser window and keep the login');
  auth
    .command('login')
    .description(
      'Open a browser window at a login page; once you have signed in (close the window, press Enter, or reach --until-url), save its cookies and localStorage as an auth profile. Needs a display; without one, use auth-profiles import',
    )
    .requiredOption('--url <url>', 'the login page')
    .option('--domain <domain>', "default: the login page's host")
    .option('--project <id>', 'the project it belongs to (prj_...)')
    .option('--name <name>', 'default: the domain')
    .option(
      '--until-url <glob>',
      'finish on its own once the page reaches a URL matching this glob (e.g. **/dashboard)',
    )
    .option('--json', 'print JSON')
    .action(async (options: BrowserLoginOptions) => {
      let url: URL;
      try {
        url = new URL(options.url);
      } catch {
        throw new CliError(`Invalid --url "${options.url}": give the login page's full address`, EXIT.usage);
      }
      // Checked before the browser opens, so a typo does not cost a sign-in.
      const domain = options.domain ?? url.hostname;
      profileBody({ domain, ...(options.project ? { project_id: options.project } : {}) });
      const state = await captureStorageStateInBrowser(context, {
        url: url.href,
        ...(options.untilUrl ? { untilUrl: options.untilUrl } : {}),
      });
      await saveProfile(context, { ...options, domain }, state);
    });
}
