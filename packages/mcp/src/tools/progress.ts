import type { ToolExtra } from './tool-context.js';

export type ReportProgress = (progress: number, message: string, total?: number) => void;

/**
 * MCP progress notifications for this call, when the client asked for them with
 * `_meta.progressToken`; undefined otherwise. A notification that cannot be sent is dropped: it
 * must never fail the call it reports on.
 */
export function progressOf(extra: ToolExtra | undefined): ReportProgress | undefined {
  const progressToken = extra?._meta?.progressToken;
  if (progressToken === undefined || extra === undefined) return undefined;
  return (progress, message, total) => {
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress, message, ...(total === undefined ? {} : { total }) },
      })
      .catch(() => {});
  };
}
