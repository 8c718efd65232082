import { createProjectBodySchema, idPattern, type Project } from '@vitrine/contract';
import type { Command } from 'commander';
import { type CliContext, clientOf, print } from '../cli-context.ts';
import { CliError, EXIT } from '../exit-codes.ts';
import { formatTable } from '../table.ts';

function checkProjectId(id: string): void {
  if (!idPattern('project').test(id)) {
    throw new CliError(
      `Invalid project id "${id}": project ids look like prj_ followed by 26 letters and digits`,
      EXIT.usage,
    );
  }
}

function describeProject(project: Project): string {
  return [
    `Project:  ${project.id}${project.is_default ? ' (default)' : ''}`,
    `Name:     ${project.name}`,
    `Domain:   ${project.domain ?? 'none'}`,
    `Brand:    ${project.brand_status}${project.brand_error ? ` (${project.brand_error})` : ''}`,
    `Created:  ${project.created_at}`,
  ].join('\n');
}

interface CreateOptions {
  name?: string;
  domain?: string;
  default?: boolean;
  brand: boolean;
  json?: boolean;
}

export function addProjectsCommand(program: Command, context: CliContext): void {
  const projects = program
    .command('projects')
    .description('Projects: signing secrets, default project, brand');

  projects
    .command('ls')
    .description("List the account's projects")
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const { body } = await clientOf(context).call('listProjects');
      if (options.json) return print(context, body);
      if (body.projects.length === 0)
        return print(context, 'No projects yet: vitrine projects create --name <name>');
      const rows = body.projects.map((p) => [
        p.id,
        p.name,
        p.domain ?? '',
        p.is_default ? 'yes' : '',
        p.brand_status,
      ]);
      print(context, formatTable(['ID', 'NAME', 'DOMAIN', 'DEFAULT', 'BRAND'], rows));
    });

  projects
    .command('create')
    .description('Create a project; prints its signing secret once')
    .option('--name <name>', 'default: the domain, or "Untitled project"')
    .option('--domain <domain>', 'the site the project is for (starts brand extraction)')
    .option('--default', 'make it the default project')
    .option('--no-brand', 'do not start brand extraction')
    .option('--json', 'print JSON')
    .action(async (options: CreateOptions) => {
      const parsed = createProjectBodySchema.safeParse({
        ...(options.name !== undefined ? { name: options.name } : {}),
        ...(options.domain !== undefined ? { domain: options.domain } : {}),
        ...(options.default ? { make_default: true } : {}),
        start_brand_extract: options.brand,
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new CliError(`Invalid --${String(issue.path[0] ?? 'name')}: ${issue.message}`, EXIT.usage);
      }
      const { body } = await clientOf(context).call('createProject', { body: parsed.data });
      if (options.json) return print(context, body);
      print(context, describeProject(body.project));
      context.stderr.write('Signing secret (shown once; store it now):\n');
      print(context, body.signing_secret);
    });

  projects
    .command('get')
    .description('Show a project')
    .argument('<id>', 'prj_...')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      checkProjectId(id);
      const { body } = await clientOf(context).call('getProject', { params: { id } });
      print(context, options.json ? body : describeProject(body.project));
    });

  projects
    .command('default')
    .description('Make a project the default project')
    .argument('<id>', 'prj_...')
    .action(async (id: string) => {
      checkProjectId(id);
      await clientOf(context).call('makeProjectDefault', { params: { id } });
      print(context, `${id} is now the default project`);
    });

  projects
    .command('secret')
    .description(
      "Print a project's signing secret; --webhook prints the whsec_ form a Standard Webhooks verifier takes",
    )
    .argument('<id>', 'prj_... (the default project: see `vitrine projects ls`)')
    .option('--webhook', 'print webhook_secret (whsec_ + base64 of the signing secret)')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { webhook?: boolean; json?: boolean }) => {
      checkProjectId(id);
      const { body } = await clientOf(context).call('getProjectSigningSecret', { params: { id } });
      if (options.json) return print(context, body);
      print(context, options.webhook ? body.webhook_secret : body.signing_secret);
    });

  projects
    .command('rotate-secret')
    .description('Issue a new signing secret (the previous one stays valid for 24 hours)')
    .argument('<id>', 'prj_...')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      checkProjectId(id);
      const { body } = await clientOf(context).call('rotateProjectSigningSecret', { params: { id } });
      if (options.json) return print(context, body);
      context.stderr.write(
        `New signing secret for ${id} (shown once)${body.previous_secret_expires_at ? `; the previous one works until ${body.previous_secret_expires_at}` : ''}:\n`,
      );
      print(context, body.signing_secret);
    });
}
