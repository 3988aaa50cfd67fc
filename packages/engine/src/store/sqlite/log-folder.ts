import type { FoldResult, LogFold } from './execution-log-fold.js';
import type { LogPosition } from './execution-log-positions.js';

/** A fold asked for: a log, up to where. */
export interface FoldRequest {
  log: { id: string; path: string };
  until: LogPosition;
}

/** How a fold ended: its result, or the error that stopped it (nothing of it applied then). */
export type FoldOutcome = { ok: true; result: FoldResult } | { ok: false; error: unknown };

/** Where a store's execution log is folded into the tables: on the fold thread or on the event loop. */
export interface LogFolder {
  /** Folds in the background; `done` is called on the event loop once it has ended. */
  fold(request: FoldRequest, done: (outcome: FoldOutcome) => void): void;
  /** Folds before returning, after the folds asked for before it (whose `done` are called first). */
  foldNow(request: FoldRequest, done: (outcome: FoldOutcome) => void): FoldOutcome;
  /** This store no longer folds here. */
  release(): void;
}

/** Folds on the event loop, with the store's own connection. */
export function createInlineFolder(fold: LogFold): LogFolder {
  const foldNow = (request: FoldRequest, done: (outcome: FoldOutcome) => void): FoldOutcome => {
    let outcome: FoldOutcome;
    try {
      outcome = { ok: true, result: fold(request.log, request.until) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    done(outcome);
    return outcome;
  };
  return { fold: foldNow, foldNow, release: () => {} };
}
