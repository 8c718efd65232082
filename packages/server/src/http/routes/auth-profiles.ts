import type { AuthProbe, AuthProfileService } from '../../authprofiles/auth-profile-service.ts';
import type { TargetChecker } from '../../captures/capture-service.ts';
import { clientAbortSignal } from '../client-abort-signal.ts';
import type { RouteHandlers } from '../route-handler.ts';

type AuthProfileHandlers = Pick<
  RouteHandlers,
  | 'createAuthProfile'
  | 'listAuthProfiles'
  | 'getAuthProfile'
  | 'updateAuthProfile'
  | 'deleteAuthProfile'
  | 'testAuthProfile'
>;

/** Auth profile routes (docs/api-decisions.md section 8): parse, call the service, reply. */
export function authProfileHandlers(deps: {
  profiles: AuthProfileService;
  targets: TargetChecker;
  probe: AuthProbe;
}): AuthProfileHandlers {
  const { profiles } = deps;
  return {
    createAuthProfile: async ({ principal, body }) => profiles.create(principal.userId, body),
    listAuthProfiles: async ({ principal, query }) => ({
      profiles: await profiles.list(principal.userId, query.project_id),
    }),
    getAuthProfile: async ({ principal, params }) => ({
      profile: await profiles.get(principal.userId, params.id),
    }),
    updateAuthProfile: async ({ principal, params, body }) =>
      profiles.update(principal.userId, params.id, body),
    deleteAuthProfile: async ({ principal, params }) => {
      await profiles.remove(principal.userId, params.id);
      return { deleted: true };
    },
    testAuthProfile: async ({ principal, params, body, reply }) => {
      // The profile first (404, then the domain), then the network policy, as for a capture.
      await profiles.get(principal.userId, params.id);
      const url = deps.targets.parseUrl(body.url);
      return profiles.test(principal.userId, params.id, url, deps.probe, clientAbortSignal(reply.raw), () =>
        deps.targets.checkUrl(url.href),
      );
    },
  };
}
