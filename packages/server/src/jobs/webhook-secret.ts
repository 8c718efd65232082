import type { ProjectRow } from '../db/projects-repository.ts';

/** The signing secret of a webhook: the capture's project, or the account's default project. */
export type WebhookSecretLookup = (userId: string, projectId: string | null) => Promise<string>;

export interface WebhookSecretDeps {
  findProject(id: string): Promise<ProjectRow | undefined>;
  findDefault(userId: string): Promise<ProjectRow | undefined>;
  /** Creates the default project when the account has none yet (ProjectService.ensureDefault). */
  ensureDefault(userId: string): Promise<unknown>;
  /** The project's current secret first (ProjectService.validSigningSecrets). */
  validSigningSecrets(row: ProjectRow): string[];
}

/** Looks the secret up at delivery time, so a rotation applies to the next attempt. */
export function createWebhookSecretLookup(deps: WebhookSecretDeps): WebhookSecretLookup {
  return async (userId, projectId) => {
    let row = projectId === null ? undefined : await deps.findProject(projectId);
    if (row && row.user_id !== userId) row = undefined;
    row ??= await deps.findDefault(userId);
    if (!row) {
      await deps.ensureDefault(userId);
      row = await deps.findDefault(userId);
    }
    const secret = row ? deps.validSigningSecrets(row)[0] : undefined;
    if (secret === undefined) throw new Error(`No signing secret for the webhooks of ${userId}`);
    return secret;
  };
}
