import type { ProjectRow } from '../db/projects-repository.ts';

/** The signing secret of a webhook: the capture's project, or the account's default project without one. */
export type WebhookSecretLookup = (userId: string, projectId: string | null) => Promise<string>;

export interface WebhookSecretDeps {
  findProject(id: string): Promise<ProjectRow | undefined>;
  findDefault(userId: string): Promise<ProjectRow | undefined>;
  /** Creates the default project when the account has none yet (ProjectService.ensureDefault). */
  ensureDefault(userId: string): Promise<unknown>;
  /** The project's current secret first (ProjectService.validSigningSecrets). */
  validSigningSecrets(row: ProjectRow): string[];
}

/**
 * Looks the secret up at delivery time, so a rotation applies to the next attempt. A capture's
 * project was checked to be the caller's when it was accepted (docs/api-decisions.md section 9); if it is
 * gone by now, delivery fails rather than signing with another project's secret.
 */
export function createWebhookSecretLookup(deps: WebhookSecretDeps): WebhookSecretLookup {
  return async (userId, projectId) => {
    let row: ProjectRow | undefined;
    if (projectId !== null) {
      row = await deps.findProject(projectId);
      if (row?.user_id !== userId) throw new Error(`Project ${projectId} of the webhook is gone`);
    } else {
      row = await deps.findDefault(userId);
      if (!row) {
        await deps.ensureDefault(userId);
        row = await deps.findDefault(userId);
      }
    }
    const secret = row ? deps.validSigningSecrets(row)[0] : undefined;
    if (secret === undefined) throw new Error(`No signing secret for the webhooks of ${userId}`);
    return secret;
  };
}
