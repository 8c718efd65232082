import { createKeyBodySchema, idPattern, SCOPES, type Scope } from '@vitrine/contract';
import type { Command } from 'commander';
import { type CliContext, clientOf, print } from '../cli-context.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { formatTable } from '../table.ts';

/** `--scopes a,b`: every name must be one of the contract's scopes (none given: no scopes). */
export function scopeList(value: string | undefined): Scope[] {
  if (value === undefined) return [];
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = list.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new CliError(
      `Unknown scope ${unknown.join(', ')}. Must be any of: ${SCOPES.join(', ')}`,
      EXIT.usage,
    );
  }
  return list as Scope[];
}

export function addAccountCommands(program: Command, context: CliContext): void {
  program
    .command('usage')
    .description('Credits left and renders over the last 30 days')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { body } = await clientOf(context).call('getUsage');
      if (options.json) return print(context, body);
      print(context, `Credits: ${body.credits_remaining} left of ${body.credits_monthly} a month`);
      print(
        context,
        `Last 30 days: ${body.last_30_days.render_count} renders, ${body.last_30_days.credits_used} credits`,
      );
      if (body.daily_breakdown.length > 0) {
        print(context, '');
        const rows = body.daily_breakdown.map((d) => [d.day, String(d.renders), String(d.credits)]);
        print(context, formatTable(['DAY', 'RENDERS', 'CREDITS'], rows));
      }
    });

  const keys = program
    .command('keys')
    .description("The account's API keys (needs a key with the keys scope, as device login gives)");
  keys
    .command('ls')
    .description('List the keys (never the keys themselves)')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { body } = await clientOf(context).call('listKeys');
      if (options.json) return print(context, body);
      const rows = body.keys.map((k) => [
        k.id,
        k.prefix,
        k.label,
        k.scopes.length === 0 ? 'all' : k.scopes.join(','),
        k.created_at.slice(0, 10),
        k.last_used_at?.slice(0, 10) ?? 'never',
        k.revoked_at ? 'revoked' : 'active',
      ]);
      print(context, formatTable(['ID', 'PREFIX', 'LABEL', 'SCOPES', 'CREATED', 'LAST USED', 'STATE'], rows));
    });
  keys
    .command('create')
    .description('Create a live key with at most the scopes of the key in use; prints it once')
    .option('--label <label>', 'a note to recognise it by')
    .option('--scopes <list>', `comma-separated: ${SCOPES.join(',')} (default: full access)`)
    .option('--json', 'print JSON')
    .action(async (options: { label?: string; scopes?: string; json?: boolean }) => {
      const parsed = createKeyBodySchema.safeParse({
        ...(options.label !== undefined ? { label: options.label } : {}),
        scopes: scopeList(options.scopes),
      });
      if (!parsed.success)
        throw new CliError(`Invalid --label: ${parsed.error.issues[0]!.message}`, EXIT.usage);
      const { body } = await clientOf(context).call('createKey', { body: parsed.data });
      if (options.json) return print(context, body);
      context.stderr.write(
        `Created ${body.key.id} (${body.key.label}). The key is shown once; store it now:\n`,
      );
      print(context, body.api_key);
    });
  keys
    .command('revoke')
    .description('Revoke a key at once')
    .argument('<id>', 'key_...')
    .action(async (id: string) => {
      if (!idPattern('apiKey').test(id)) {
        throw new CliError(
          `Invalid key id "${id}": key ids look like key_ followed by 26 letters and digits`,
          EXIT.usage,
        );
      }
      await clientOf(context).call('revokeKey', { params: { id } });
      print(context, `Revoked ${id}`);
    });
}
