import type { AccountKeys } from '../../auth/account-keys.ts';
import type { Accounts } from '../../auth/accounts.ts';
import type { Credits } from '../../billing/credits.ts';
import { AppError } from '../../errors/app-error.ts';
import type { RouteHandlers } from '../route-handler.ts';

export interface AccountHandlersDeps {
  accounts: Pick<Accounts, 'users'>;
  keys: AccountKeys;
  credits: Pick<Credits, 'usage'>;
}

/** GET /v1/account and the key routes under /v1/keys **(ext)**. */
export function accountHandlers(
  deps: AccountHandlersDeps,
): Pick<RouteHandlers, 'getAccount' | 'listKeys' | 'createKey' | 'revokeKey'> {
  async function userOf(userId: string) {
    const user = await deps.accounts.users.findById(userId);
    if (!user) throw new AppError('unauthorized', 'The account of this API key no longer exists');
    return user;
  }

  return {
    getAccount: async ({ principal }) => {
      if (principal.keyId === null) throw new AppError('unauthorized', 'This route needs an API key');
      const [user, key, usage] = await Promise.all([
        userOf(principal.userId),
        deps.keys.get(principal.userId, principal.keyId),
        deps.credits.usage(principal.userId),
      ]);
      return {
        user: { id: user.id, email: user.email, created_at: user.created_at },
        key,
        credits_remaining: usage.credits_remaining,
        credits_monthly: usage.credits_monthly,
      };
    },
    listKeys: async ({ principal }) => ({ keys: await deps.keys.list(principal.userId) }),
    createKey: async ({ principal, body }) => {
      const { key, apiKey } = await deps.keys.create(await userOf(principal.userId), {
        label: body.label,
        scopes: body.scopes ?? [],
        origin: 'api',
        heldScopes: principal.scopes,
      });
      return { key, api_key: apiKey };
    },
    revokeKey: async ({ principal, params }) => ({
      key: await deps.keys.revoke(principal.userId, params.id),
    }),
  };
}
