import type { Database } from 'better-sqlite3';

/** How far a log has been folded into the tables: its records up to `offset` under `epoch`. */
export interface LogPosition {
  epoch: number;
  offset: number;
}

/**
 * The fold positions of execution logs (table `execution_log_positions`). A fold writes its
 * position in the same transaction as the writes it folds, so a log read back after a crash is
 * applied from exactly where the tables stop, never twice.
 */
export interface LogPositions {
  get(logId: string): LogPosition | undefined;
  set(logId: string, position: LogPosition): void;
  delete(logId: string): void;
}

export function createLogPositions(sqlite: Database): LogPositions {
  const select = sqlite.prepare<[string], LogPosition>('SELECT epoch, "offset" AS offset FROM execution_log_positions WHERE log_id = ?');
  const upsert = sqlite.prepare<[string, number, number, number]>(
    'INSERT INTO execution_log_positions (log_id, epoch, "offset", updated_at) VALUES (?, ?, ?, ?) ' +
      'ON CONFLICT (log_id) DO UPDATE SET epoch = excluded.epoch, "offset" = excluded."offset", updated_at = excluded.updated_at',
  );
  const remove = sqlite.prepare<[string]>('DELETE FROM execution_log_positions WHERE log_id = ?');
  return {
    get: (logId) => select.get(logId),
    set: (logId, position) => void upsert.run(logId, position.epoch, position.offset, Date.now()),
    delete: (logId) => void remove.run(logId),
  };
}
