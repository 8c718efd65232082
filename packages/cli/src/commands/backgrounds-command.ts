import { BACKGROUND_THEMES } from '@vitrine/contract';
import { type Command, Option } from 'commander';
import { type CliContext, clientOf, print } from '../cli-context.ts';
import { formatTable } from '../table.ts';

interface ListOptions {
  pack?: string;
  theme?: string;
  q?: string;
  group?: string;
  limit?: string;
  offset?: string;
  json?: boolean;
}

async function listBackgrounds(context: CliContext, options: ListOptions): Promise<void> {
  const client = clientOf(context, { requireKey: false });
  const { body } = await client.call('listBackgrounds', {
    query: {
      pack: options.pack,
      theme: options.theme,
      q: options.q,
      group: options.group,
      limit: options.limit,
      offset: options.offset,
    },
  });
  if (options.json) {
    print(context, body);
    return;
  }
  print(
    context,
    `Gradient presets (background_preset): ${body.presets.map((p) => p.background_preset).join(', ')}`,
  );
  print(context, '');
  if (body.backgrounds.length === 0) {
    print(context, 'No hosted background matches.');
    return;
  }
  const rows = body.backgrounds.map((b) => [b.background ?? '', b.name, b.theme ?? '', b.pack ?? '']);
  print(context, formatTable(['BACKGROUND', 'NAME', 'THEME', 'PACK'], rows));
  const shown = `${body.offset + 1}-${body.offset + body.backgrounds.length} of ${body.total}`;
  print(context, `\n${shown}. Use one with: vitrine capture <url> --background <BACKGROUND>`);
}

export function addBackgroundsCommand(program: Command, context: CliContext): void {
  const backgrounds = program.command('backgrounds').description('The hosted background catalogue');
  backgrounds
    .command('ls')
    .description('List hosted backgrounds (and the gradient presets)')
    .option('--pack <names>', 'only these packs, comma-separated')
    .addOption(new Option('--theme <theme>', 'only this theme').choices(BACKGROUND_THEMES))
    .option('--q <words>', 'search name, pack and tags')
    .option('--group <groups>', 'comma-separated asset groups (backgrounds, gradients, css-backgrounds)')
    .option('--limit <n>', 'how many (default 50, at most 200)')
    .option('--offset <n>', 'skip this many')
    .option('--json', 'print JSON')
    .action((options: ListOptions) => listBackgrounds(context, options));
}
