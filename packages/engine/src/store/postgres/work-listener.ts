import pg from 'pg';
import type { Logger } from '../../logger.js';

/** How long a lost LISTEN connection waits before it connects again; polling covers the gap. */
const RECONNECT_MS = 1_000;

export interface WorkListener {
  /** Calls `listener` on each announcement of claimable work; answers how to stop. */
  subscribe(listener: () => void): () => void;
  close(): Promise<void>;
}

/**
 * `LISTEN` on the store's work channel over a connection of its own (a pooled one would be handed
 * to other queries), opened on the first subscription. A connection that fails is replaced after
 * a pause; announcements sent meanwhile are lost, which costs the worker at most one poll.
 */
export function createWorkListener(options: {
  config: pg.ClientConfig;
  channel: string;
  logger: Logger;
}): WorkListener {
  const listeners = new Set<() => void>();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = (): void => {
    if (closed || client !== undefined) return;
    const connection = new pg.Client(options.config);
    client = connection;
    const lost = (error: unknown): void => {
      if (client !== connection) return;
      client = undefined;
      connection.end().catch(() => undefined);
      if (closed || listeners.size === 0) return;
      options.logger.warn('lost the connection that listens for new work; polling until it is back', {
        error: String(error),
      });
      retry = setTimeout(connect, RECONNECT_MS);
      retry.unref();
    };
    connection.on('error', lost);
    connection.on('end', () => lost(new Error('connection ended')));
    connection.on('notification', () => {
      for (const listener of listeners) listener();
    });
    connection
      .connect()
      .then(() => connection.query(`LISTEN "${options.channel.replaceAll('"', '""')}"`))
      .catch(lost);
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      connect();
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const connection = client;
      client = undefined;
      await connection?.end().catch(() => undefined);
    },
  };
}
