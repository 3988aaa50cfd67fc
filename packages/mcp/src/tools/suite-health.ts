import type { AlertDeliveryView, SuiteHealthView } from '@svc/engine';
import { oneLine, table } from '@svc/engine/text-table';
import { z } from 'zod';
import { strictInput } from './strict-input.js';
import { guarded, type ToolContext } from './tool-context.js';
import { okResult, toolOutput } from './tool-error.js';

const inputSchema = strictInput({
  suiteId: z.string().min(1).max(200),
  limit: z.number().int().min(1).max(100).optional().describe('Alerts to show (default 20)'),
});

const outputSchema = toolOutput({
  health: z.looseObject({ status: z.string(), checks: z.array(z.looseObject({ state: z.string() })) }),
  alerts: z.array(z.looseObject({ id: z.string(), status: z.string() })),
});

/** What the tool shows of a delivery: the alert's facts are summed up by its check and error. */
function alertView(alert: AlertDeliveryView) {
  const { id, channelName, channelType, flowId, event, status, attempts, nextAttemptAt, lastError, createdAt } = alert;
  return { id, channelName, channelType, flowId, event, status, attempts, nextAttemptAt, lastError, createdAt };
}

function render(health: SuiteHealthView, alerts: ReturnType<typeof alertView>[]): string {
  const checks = [['CHECK', 'STATE', 'SINCE', 'LAST FAILURE']];
  for (const check of health.checks)
    checks.push([
      oneLine(check.name ?? check.flowId, 50),
      check.state,
      check.since ?? '-',
      check.lastFailure
        ? oneLine(
            `${check.lastFailure.error.code} at ${check.lastFailure.step ?? '-'}: ${check.lastFailure.error.message}`,
            80,
          )
        : '',
    ]);
  let text = `Suite ${health.suiteName} (${health.kind}) is ${health.status}:\n${table(checks)}`;
  if (alerts.length === 0) return `${text}\nNo alerts yet.`;
  const rows = [['ALERT', 'CHANNEL', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST ERROR']];
  for (const alert of alerts)
    rows.push([
      alert.id,
      alert.channelName ?? alert.channelType,
      alert.event,
      alert.status,
      String(alert.attempts),
      alert.lastError ? oneLine(`${alert.lastError.code}: ${alert.lastError.message}`, 60) : '',
    ]);
  text += `\n${alerts.length} latest alert(s):\n${table(rows)}`;
  return text;
}

export function registerSuiteHealth(context: ToolContext): void {
  context.server.registerTool(
    'svc_suite_health',
    {
      title: 'Health-check state and alerts',
      description:
        'A health-check suite: each check healthy or failing since when, with the last failure (step, error), and its latest alert deliveries (status, attempts, last error).',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(context, 'svc_suite_health', async (args: z.infer<typeof inputSchema>) => {
      const [health, alerts] = await Promise.all([
        context.api.getSuiteHealth(args.suiteId),
        context.api.listSuiteAlerts(args.suiteId, { limit: args.limit ?? 20 }),
      ]);
      const shown = alerts.map(alertView);
      return okResult({ health, alerts: shown }, render(health, shown));
    }),
  );
}
