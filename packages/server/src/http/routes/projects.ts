import { webhookSecretOf } from '@vitrine/contract';
import type { Credits } from '../../billing/credits.ts';
import type { ProjectService } from '../../projects/project-service.ts';
import type { RouteHandlers } from '../route-handler.ts';

type ProjectHandlers = Pick<
  RouteHandlers,
  | 'createProject'
  | 'listProjects'
  | 'ensureDefaultProject'
  | 'getProject'
  | 'updateProject'
  | 'makeProjectDefault'
  | 'getProjectBrandStatus'
  | 'refreshProjectBrand'
  | 'rotateProjectSigningSecret'
  | 'getProjectSigningSecret'
>;

export function projectHandlers(projects: ProjectService): ProjectHandlers {
  return {
    createProject: async ({ principal, body }) => {
      const { project, signingSecret } = await projects.create(principal.userId, body);
      return { project, signing_secret: signingSecret };
    },
    listProjects: async ({ principal }) => ({ projects: await projects.list(principal.userId) }),
    ensureDefaultProject: async ({ principal }) => ({
      project: await projects.ensureDefault(principal.userId),
    }),
    getProject: async ({ principal, params }) => ({
      project: await projects.get(principal.userId, params.id),
    }),
    updateProject: async ({ principal, params, body }) => ({
      project: await projects.update(principal.userId, params.id, body),
    }),
    makeProjectDefault: async ({ principal, params }) => {
      await projects.makeDefault(principal.userId, params.id);
      return { success: true };
    },
    getProjectBrandStatus: async ({ principal, params }) => {
      const project = await projects.get(principal.userId, params.id);
      return { project, status: project.brand_status, brand: project.brand };
    },
    refreshProjectBrand: async ({ principal, params }) => ({
      project: await projects.refreshBrand(principal.userId, params.id),
    }),
    getProjectSigningSecret: async ({ principal, params }) => {
      const secret = await projects.signingSecret(principal.userId, params.id);
      return { signing_secret: secret, webhook_secret: webhookSecretOf(secret) };
    },
    rotateProjectSigningSecret: async ({ principal, params }) => {
      const { signingSecret, previousExpiresAt } = await projects.rotateSigningSecret(
        principal.userId,
        params.id,
      );
      return { signing_secret: signingSecret, previous_secret_expires_at: previousExpiresAt };
    },
  };
}

export function usageHandlers(credits: Credits): Pick<RouteHandlers, 'getUsage'> {
  return {
    getUsage: async ({ principal }) => credits.usage(principal.userId),
  };
}
