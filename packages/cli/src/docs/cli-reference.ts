import type { Command, Option } from 'commander';
import type { CliContext } from '../cli-context.ts';
import { EXIT_CODE_MEANINGS } from '../exit-codes.ts';
import { buildProgram, CLI_ENVIRONMENT } from '../program.ts';

/** A context that is never run: the reference only reads the command definitions. */
const DOCS_CONTEXT: CliContext = {
  env: {},
  version: '0.0.0',
  stdout: process.stdout,
  stderr: process.stderr,
  open: async () => false,
};

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replace(/\s+/g, ' ').trim();
}

function optionRows(command: Command): string[] {
  const options = command.options as readonly Option[];
  const negated = new Set(options.filter((o) => o.negate).map((o) => o.long!.replace(/^--no-/, '--')));
  const rows: { group: string; row: string }[] = [];
  for (const option of options) {
    if (option.negate && options.some((o) => o.long === option.long!.replace(/^--no-/, '--'))) continue;
    let flags = option.flags;
    if (option.long && negated.has(option.long)) flags = `${option.flags}, --no-${option.long.slice(2)}`;
    const extras: string[] = [];
    if (option.argChoices) extras.push(`one of: ${option.argChoices.map((c) => `\`${c}\``).join(', ')}`);
    if (option.defaultValue !== undefined && typeof option.defaultValue !== 'boolean') {
      extras.push(`default: \`${String(option.defaultValue)}\``);
    }
    const description = [option.description, ...extras].filter(Boolean).join('; ');
    rows.push({ group: option.helpGroupHeading ?? '', row: `| \`${cell(flags)}\` | ${cell(description)} |` });
  }
  const out: string[] = [];
  let group: string | undefined;
  for (const { group: heading, row } of rows) {
    if (heading !== group) {
      group = heading;
      if (heading) out.push(`| **${cell(heading.replace(/:$/, ''))}** | |`);
    }
    out.push(row);
  }
  return out;
}

function commandSection(command: Command, parents: string[]): string[] {
  const path = [...parents, command.name()];
  if (command.commands.length > 0) {
    return command.commands.filter((c) => c.name() !== 'help').flatMap((c) => commandSection(c, path));
  }
  const lines = [
    `### ${path.join(' ')}`,
    '',
    command.description(),
    '',
    '```',
    `${path.join(' ')} ${command.usage()}`,
    '```',
    '',
  ];
  const args = command.registeredArguments;
  if (args.length > 0) {
    lines.push('| argument | meaning |', '|---|---|');
    for (const arg of args)
      lines.push(`| \`${arg.name()}${arg.variadic ? '...' : ''}\` | ${cell(arg.description)} |`);
    lines.push('');
  }
  const rows = optionRows(command);
  if (rows.length > 0) lines.push('| option | meaning |', '|---|---|', ...rows, '');
  return lines;
}

/**
 * docs/cli.md, generated from the command definitions themselves (`make docs`; a test fails when
 * the file is stale), so the reference lists exactly the flags the CLI accepts.
 */
export function renderCliReference(): string {
  const program = buildProgram(DOCS_CONTEXT);
  const commands = program.commands.filter((c) => c.name() !== 'help');
  return [
    '# vitrine command-line reference',
    '',
    '<!-- Generated from packages/cli/src/program.ts by `make docs`; do not edit by hand. -->',
    '',
    '`vitrine` is the client of a Vitrine server: sign in with `vitrine login` (device login in the',
    'browser), then capture, manage projects and keys, or serve the Model Context Protocol for AI agents',
    "with `vitrine mcp`. Errors print the service's message on one line and exit with the code below.",
    'Install it on its own with `npm i -g <tarball>` (made by `npm pack` in `packages/cli`), or run',
    '`bin/vitrine` from a checkout (where `bin/vitrine serve` and `bin/vitrine admin` run the server).',
    '',
    '## Commands',
    '',
    ...commands.map((c) => `- \`vitrine ${c.name()}\`: ${c.description()}`),
    '',
    ...commands.flatMap((c) => commandSection(c, ['vitrine'])),
    '## Environment',
    '',
    '| variable | meaning |',
    '|---|---|',
    ...CLI_ENVIRONMENT.map((e) => `| \`${e.name}\` | ${cell(e.meaning)} |`),
    '',
    '`vitrine login` stores the server URL and the key in `config.json` in the config directory, with',
    'mode 0600. A stored key is sent only to the server it came from.',
    '',
    '## Exit codes',
    '',
    '| code | meaning |',
    '|---|---|',
    ...EXIT_CODE_MEANINGS.map((e) => `| ${e.code} | ${cell(e.meaning)} |`),
    '',
  ].join('\n');
}
