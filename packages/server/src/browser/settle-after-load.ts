import type { Page } from 'playwright-core';
import { sleep } from './abort-race.ts';
import {
  ANIMATION_BUDGET,
  type AnimationBudget,
  type FinishedAnimations,
  finishAnimations,
} from './finish-animations.ts';
import type { ScriptActivity } from './script-activity.ts';

/**
 * How long a capture follows what the page does after `load` (docs/decisions.md, "Settled on
 * what the page does"). A round runs the page's clock until it is quiet (finishAnimations);
 * when the page started loading scripts or stylesheets since the round began (a chunk loaded
 * with `import()`, a require.js module, a chart library another script inserts), the capture
 * waits for them in real time, lets their code run, and settles again.
 */
export interface SettleBudget {
  /** The clock's budget, shared by all rounds (page time and real time spent running it). */
  animation: AnimationBudget;
  /** Most real time from the first round's start to the last: the cap for a page that keeps loading. */
  capMs: number;
  /** Real time after the last script or stylesheet ended before the next round (its code runs, then draws). */
  scriptQuietMs: number;
  /** Most rounds. */
  rounds: number;
  /** How often the wait for scripts looks again. */
  pollMs: number;
  /**
   * The clock budget every settling gets even when the shared one is spent: after a scroll pass
   * the page's throttled scroll handlers (timers) must run once at the new position, or content
   * the pass brought into view is never revealed.
   */
  floor: { pageMs: number; wallMs: number };
}

export const SETTLE_BUDGET: SettleBudget = {
  animation: ANIMATION_BUDGET,
  capMs: 10_000,
  scriptQuietMs: 120,
  rounds: 8,
  pollMs: 10,
  floor: { pageMs: 1000, wallMs: 300 },
};

/**
 * After a full page returns to the top: time for the page's scroll handlers (throttled by timers
 * or frames) to restore its top state, whatever the first settling spent.
 */
export const SETTLE_AT_TOP_BUDGET: SettleBudget = {
  ...SETTLE_BUDGET,
  animation: { ...ANIMATION_BUDGET, pageMs: 3000, wallMs: 1000, requestWaitMs: 2000 },
  capMs: 3000,
  rounds: 3,
};

/** What settling did: the last round's state, the page time run in all, and what was left loading. */
export interface SettledPage extends FinishedAnimations {
  /** Scripts and stylesheets still loading when the cap was reached (their URLs). */
  scriptsPending: string[];
  /** The page kept starting scripts or stylesheets until the cap or the last round. */
  scriptsKeptLoading: boolean;
  rounds: number;
}

/**
 * What the settling of one capture has spent so far: successive calls (before the full-page
 * scroll, after it, after each wave of content it reveals) share the clock's budget and the cap.
 */
export interface SettleProgress {
  /** Activity of the page's scripts from this `performance.now()` on calls for another round. */
  since: number;
  deadline: number;
  ranMs: number;
  clockWallMs: number;
}

/** Starts a capture's settling: `since` is usually the end of `load`. */
export function startSettling(since: number, budget: SettleBudget = SETTLE_BUDGET): SettleProgress {
  return { since, deadline: performance.now() + budget.capMs, ranMs: 0, clockWallMs: 0 };
}

/**
 * Settles the page: a static page pays one evaluate; a page that loads code later pays a wait
 * for that code plus one round per wave of it, within the budget `progress` has left.
 */
export async function settleAfterLoad(
  page: Page,
  scripts: ScriptActivity,
  progress: SettleProgress,
  options: { signal: AbortSignal },
  budget: SettleBudget = SETTLE_BUDGET,
): Promise<SettledPage> {
  let finished: FinishedAnimations | undefined;
  let rounds = 0;
  const result = (scriptsPending: string[], scriptsKeptLoading: boolean): SettledPage => {
    progress.since = performance.now();
    const last = finished as FinishedAnimations;
    return { ...last, ranMs: progress.ranMs, scriptsPending, scriptsKeptLoading, rounds };
  };
  // The floor is this settling's own: it does not add up over its rounds.
  const ranBefore = progress.ranMs;
  const wallBefore = progress.clockWallMs;
  for (;;) {
    const last = rounds + 1 >= budget.rounds || performance.now() >= progress.deadline;
    const animation: AnimationBudget = {
      ...budget.animation,
      pageMs: Math.max(
        budget.floor.pageMs - (progress.ranMs - ranBefore),
        budget.animation.pageMs - progress.ranMs,
        0,
      ),
      wallMs: Math.max(
        budget.floor.wallMs - (progress.clockWallMs - wallBefore),
        budget.animation.wallMs - progress.clockWallMs,
        0,
      ),
      requestWaitMs: Math.max(
        0,
        Math.min(budget.animation.requestWaitMs, progress.deadline - performance.now()),
      ),
    };
    const roundStarted = progress.since;
    const round = await finishAnimations(page, animation);
    rounds += 1;
    progress.ranMs += round.ranMs;
    progress.clockWallMs += round.clockWallMs;
    finished = { ...round, settled: round.settled && (finished?.settled ?? true) };
    const active = scripts.inFlight().length > 0 || scripts.lastActivityAt() >= roundStarted;
    if (!active) return result([], false);
    if (last) return result(scripts.inFlight(), true);
    progress.since = performance.now();
    // Until nothing is in flight and the last one ended a moment ago, within the cap.
    while (performance.now() < progress.deadline) {
      const quietFor = performance.now() - scripts.lastActivityAt();
      if (scripts.inFlight().length === 0 && quietFor >= budget.scriptQuietMs) break;
      const wait = scripts.inFlight().length === 0 ? budget.scriptQuietMs - quietFor : budget.pollMs;
      await sleep(Math.max(1, Math.min(wait, progress.deadline - performance.now())), options.signal);
    }
  }
}

/** The warning for scripts still loading or still being started at the cap; none when settled. */
export function scriptWarnings(settled: SettledPage, budget: SettleBudget = SETTLE_BUDGET): string[] {
  if (!settled.scriptsKeptLoading) return [];
  const pending = settled.scriptsPending;
  if (pending.length === 0) {
    return [
      `The page kept loading scripts (${settled.rounds} rounds, up to ${budget.capMs} ms); captured at that point`,
    ];
  }
  const names = pending.slice(0, 3).map(shortName);
  const more = pending.length > 3 ? `, and ${pending.length - 3} more` : '';
  const count = pending.length === 1 ? '1 script or stylesheet' : `${pending.length} scripts or stylesheets`;
  return [
    `The page was still loading ${count} after ${budget.capMs} ms (${names.join(', ')}${more}); captured without them`,
  ];
}

/** The last path segment of a URL, at most 60 characters: enough to name a chunk in a warning. */
function shortName(url: string): string {
  let name = url;
  try {
    const parsed = new URL(url);
    name = parsed.pathname.split('/').filter(Boolean).at(-1) ?? parsed.host;
  } catch {
    // Not a URL: keep the text.
  }
  return name.length > 60 ? `${name.slice(0, 57)}...` : name;
}
