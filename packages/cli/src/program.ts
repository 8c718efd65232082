import { Command } from 'commander';
import { type CliContext, clientOf } from './cli-context.ts';
import { addAccountCommands } from './commands/account-commands.ts';
import { addAuthCommands } from './commands/auth-commands.ts';
import { addAuthLoginCommand, addAuthProfilesCommand } from './commands/auth-profiles-command.ts';
import { addBackgroundsCommand } from './commands/backgrounds-command.ts';
import { addBatchCommand } from './commands/batch-command.ts';
import { addCaptureCommands } from './commands/capture-commands.ts';
import { addJobsCommand } from './commands/jobs-command.ts';
import { addProjectsCommand } from './commands/projects-command.ts';
import { addSignCommand } from './commands/sign-command.ts';
import { EXIT_CODE_MEANINGS } from './exit-codes.ts';
import { serveMcp } from './mcp-server.ts';
import { addSyncCommand } from './sync/sync-command.ts';

/** Environment variables the CLI reads, for the help text and docs/cli.md. */
export const CLI_ENVIRONMENT: readonly { name: string; meaning: string }[] = [
  { name: 'VITRINE_URL', meaning: 'The server to talk to; wins over the one stored by `vitrine login`' },
  { name: 'VITRINE_API_KEY', meaning: 'The API key to use; wins over the stored key' },
  {
    name: 'VITRINE_CONFIG_DIR',
    meaning: "Where the key is stored (default: the user's config dir, e.g. ~/.config/vitrine)",
  },
  { name: 'VITRINE_SIGNING_SECRET', meaning: "A project's signing secret, for `vitrine sign`" },
];

function helpFooter(): string {
  const exits = EXIT_CODE_MEANINGS.map((e) => `  ${String(e.code).padStart(2)}  ${e.meaning}`).join('\n');
  const env = CLI_ENVIRONMENT.map((e) => `  ${e.name.padEnd(24)}${e.meaning}`).join('\n');
  return `\nEnvironment:\n${env}\n\nExit codes:\n${exits}\n\nServer commands (from a checkout): vitrine serve, vitrine admin --help`;
}

/**
 * Every command of `vitrine`; also what docs/cli.md is generated from. Commander errors (unknown
 * flags, missing arguments) throw instead of exiting, so main.ts maps them to exit code 2.
 */
export function buildProgram(context: CliContext): Command {
  const program = new Command('vitrine')
    .description('Vitrine: styled screenshots from the command line, and an MCP server for AI agents')
    .version(context.version)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      writeErr: (text) => context.stderr.write(text),
    })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', helpFooter());

  addAuthCommands(program, context);
  addCaptureCommands(program, context);
  addBatchCommand(program, context);
  addSyncCommand(program, context);
  addJobsCommand(program, context);
  addBackgroundsCommand(program, context);
  addProjectsCommand(program, context);
  addAuthProfilesCommand(program, context);
  addAuthLoginCommand(program, context);
  addAccountCommands(program, context);
  addSignCommand(program, context);
  program
    .command('mcp')
    .description(
      'Serve the Model Context Protocol on stdin/stdout: tools capture, raw_capture, batch_capture, batch_status, list_backgrounds, job_status',
    )
    .action(() => serveMcp(clientOf(context), context.version));
  return program;
}
