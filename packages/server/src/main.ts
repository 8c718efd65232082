import { SCOPES } from '@vitrine/contract';
import { Command, Option } from 'commander';
import { type ProcessRole, VERSION } from './app.ts';
import { admin } from './commands/admin.ts';
import { serve } from './commands/serve.ts';
import { ConfigError, loadConfig } from './config/load-config.ts';
import { AppError } from './errors/app-error.ts';

// Entry point of `bin/vitrine serve|admin`: parse the command line, load the configuration,
// hand over. No logic lives here.
const program = new Command('vitrine').version(VERSION).showHelpAfterError();

program
  .command('serve')
  .description('Start the HTTP service (configured by environment variables, see docs/configuration.md)')
  .addOption(
    new Option('--role <role>', 'api: requests only; worker: queued jobs and webhooks; all: both')
      .choices(['api', 'worker', 'all'])
      .default('all'),
  )
  .action((opts: { role: ProcessRole }) => serve(loadConfig(), opts.role));

const adminCommand = program
  .command('admin')
  .description('Manage users and API keys in the configured database');
adminCommand
  .command('create-user')
  .requiredOption('--email <email>')
  .requiredOption('--password <password>', 'at least 8 characters')
  .action((opts) => admin.createUser(loadConfig(), opts));
adminCommand
  .command('create-key')
  .description('Create an API key (and the user, if needed); prints the key alone on the last line')
  .requiredOption('--email <email>')
  .option('--scopes <list>', `comma-separated: ${SCOPES.join(',')} (default: all)`)
  .option('--test', 'a test key: renders normally, never debits credits')
  .option('--credits <n>', "set the user's balance and monthly allocation")
  .option('--label <label>', 'a note shown in list-keys')
  .action((opts) => admin.createKey(loadConfig(), opts));
adminCommand
  .command('list-keys')
  .option('--email <email>', "only this user's keys")
  .action((opts) => admin.listKeys(loadConfig(), opts));
adminCommand
  .command('revoke-key')
  .argument('<key-id>', 'key_...')
  .action((id) => admin.revokeKey(loadConfig(), id));
adminCommand
  .command('set-credits')
  .requiredOption('--email <email>')
  .requiredOption('--credits <n>', 'the new balance')
  .option('--monthly <n>', 'the new monthly allocation')
  .action((opts) => admin.setCredits(loadConfig(), opts));

adminCommand
  .command('rotate-master-key')
  .description(
    'Re-wrap every stored secret (auth profiles, signing secrets) with a new master key, in one transaction; stop the servers first',
  )
  .option('--new-key <key>', '32 bytes as 64 hex characters or base64 (default: a random key)')
  .action((opts) => admin.rotateMasterKey(loadConfig(), opts));

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof AppError) {
    process.stderr.write(`vitrine: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
});
