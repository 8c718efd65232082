import type { UsageResponse } from '@vitrine/contract';
import { utcMonth } from '../auth/accounts.ts';
import type { Principal } from '../auth/authenticate.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { CreditLedgerRepository } from '../db/credit-ledger-repository.ts';
import { AppError } from '../errors/app-error.ts';
import { newInternalId } from '../ids.ts';

/** Credits held for one piece of work: commit when it succeeded, refund when it failed. */
export interface Reservation {
  id: string;
  amount: number;
  commit(): Promise<void>;
  refund(): Promise<void>;
}

const DAY_MS = 86_400_000;

/**
 * Reserve / commit / refund, debited atomically before any work is done. Test keys render
 * normally and never debit: they reserve 0 credits, so their renders still show in usage.
 */
export function createCredits(deps: { ledger: CreditLedgerRepository; clock: Clock }) {
  const { ledger, clock } = deps;

  async function reserve(principal: Principal, kind: string, cost: number): Promise<Reservation> {
    const amount = principal.mode === 'test' ? 0 : cost;
    const id = newInternalId('crd');
    const outcome = await ledger.reserve({
      id,
      userId: principal.userId,
      apiKeyId: principal.keyId,
      kind,
      amount,
      period: utcMonth(clock()),
      now: isoNow(clock),
    });
    if (!outcome.ok) {
      throw new AppError(
        'insufficient_credits',
        `This request costs ${amount} credits and ${outcome.remaining} remain`,
        { details: { required: amount, remaining: outcome.remaining } },
      );
    }
    return resume(id, amount);
  }

  /**
   * A reservation made earlier (e.g. at the enqueue of an async job), by its id and amount.
   * Commit and refund settle it at most once, whoever calls them and however often.
   */
  function resume(id: string, amount: number): Reservation {
    return {
      id,
      amount,
      commit: async () => {
        await ledger.commit(id, isoNow(clock));
      },
      refund: async () => {
        await ledger.refund(id, isoNow(clock));
      },
    };
  }

  async function usage(userId: string): Promise<UsageResponse> {
    const now = clock();
    const balance = await ledger.balance(userId, utcMonth(now));
    const since = new Date(now.getTime() - 29 * DAY_MS).toISOString().slice(0, 10);
    const daily = await ledger.dailyUsage(userId, since);
    return {
      credits_remaining: balance?.remaining ?? 0,
      credits_monthly: balance?.monthly ?? 0,
      last_30_days: {
        render_count: daily.reduce((n, d) => n + d.renders, 0),
        credits_used: daily.reduce((n, d) => n + d.credits, 0),
      },
      daily_breakdown: daily,
    };
  }

  return { reserve, resume, usage };
}

export type Credits = ReturnType<typeof createCredits>;
