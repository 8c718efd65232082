import { CommanderError } from 'commander';
import type { CliContext } from './cli-context.ts';
import { CliError, EXIT } from './exit-codes.ts';
import { buildProgram } from './program.ts';

/**
 * Runs one command line and returns its exit code: failures become a one-line message on
 * stderr, never a stack trace (VITRINE_DEBUG=1 adds one for unexpected errors).
 */
export async function runCli(argv: readonly string[], context: CliContext): Promise<number> {
  try {
    await buildProgram(context).parseAsync([...argv], { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof CliError) {
      context.stderr.write(`vitrine: ${error.message}\n`);
      return error.exitCode;
    }
    context.stderr.write(
      `vitrine: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    if (context.env.VITRINE_DEBUG) context.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
    return EXIT.unexpected;
  }
}
