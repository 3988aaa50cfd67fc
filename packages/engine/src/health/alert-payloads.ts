import type { AlertFacts } from '../store/health-types.js';

/*
 * The bodies an alert is sent as, one per channel type, rendered from the alert's stored facts
 * when it is sent (so a routing key lives only in the sealed channel, never in a delivery row).
 */

/** An error message in an alert is cut to this many characters (it may quote a whole response). */
const MAX_MESSAGE_LENGTH = 1_000;

const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/**
 * The generic JSON webhook's payload (documented in docs/health-checks.md). `id` is the
 * delivery's id, the same on every retry: a receiver that keeps the ids it saw drops duplicates.
 * @example
 * webhookPayload(facts, 'alr_0196…'); // { id, type: 'health-check.failing', suite, check, state, error, executionId, links, time, … }
 */
export function webhookPayload(facts: AlertFacts, deliveryId: string) {
  return {
    id: deliveryId,
    type: `health-check.${facts.event}`,
    event: facts.event,
    suite: facts.suite,
    check: facts.check,
    state: facts.state,
    since: facts.since,
    error: facts.error === null ? null : { ...facts.error, message: cut(facts.error.message, MAX_MESSAGE_LENGTH) },
    executionId: facts.executionId,
    links: { execution: facts.executionUrl },
    time: facts.time,
  };
}

/** Slack's mrkdwn treats `&`, `<` and `>` as control characters: names and errors are escaped. */
function mrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function headline(facts: AlertFacts): string {
  const check = `${facts.check.name} (suite ${facts.suite.name})`;
  if (facts.event === 'recovered') return `Recovered: ${check} is healthy again`;
  if (facts.event === 'reminder') return `Still failing: ${check}`;
  return `Failing: ${check}`;
}

/**
 * A Slack-compatible incoming webhook message: `text` (what notifications and clients without
 * blocks show) and `blocks` (a header, the failure, a link to the execution).
 */
export function slackPayload(facts: AlertFacts) {
  const icon = facts.event === 'recovered' ? ':large_green_circle:' : ':red_circle:';
  const error = facts.error;
  const errorLine =
    error === null ? '' : `${error.code}${error.step ? ` at ${error.step}` : ''}: ${cut(error.message, 300)}`;
  const text = `${icon} ${headline(facts)}${errorLine && facts.event !== 'recovered' ? ` — ${errorLine}` : ''}`;
  const fields = [
    `*Suite*\n${mrkdwn(facts.suite.name)}`,
    `*Check*\n${mrkdwn(facts.check.name)}`,
    `*State*\n${facts.state} since ${facts.since}`,
  ];
  if (error !== null && facts.event !== 'recovered') fields.push(`*Step*\n${mrkdwn(error.step ?? '-')}`);
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: cut(`${headline(facts)}`, 150), emoji: true } },
    { type: 'section', fields: fields.map((field) => ({ type: 'mrkdwn', text: cut(field, 2000) })) },
  ];
  if (error !== null && facts.event !== 'recovered') {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`*${mrkdwn(error.code)}*\n\`\`\`${mrkdwn(error.message)}\`\`\``, 3000) },
    });
  }
  const context = [`${facts.event} at ${facts.time}`];
  if (facts.executionUrl !== null) context.push(`<${facts.executionUrl}|execution ${mrkdwn(facts.executionId ?? '')}>`);
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: context.join(' · ') }] });
  return { text: mrkdwn(text), blocks };
}

/** One incident per check: every alert about it carries this key, so PagerDuty groups and resolves them. */
export function pagerDutyDedupKey(facts: AlertFacts): string {
  return `svc/${facts.suite.id}/${facts.check.flowId}`;
}

/**
 * A PagerDuty Events API v2 event: `trigger` when a check starts (or is still) failing, `resolve`
 * when it recovers, `dedup_key` per check.
 */
export function pagerDutyPayload(facts: AlertFacts, settings: { routingKey: string; severity: string }) {
  const dedupKey = pagerDutyDedupKey(facts);
  if (facts.event === 'recovered') {
    return { routing_key: settings.routingKey, event_action: 'resolve', dedup_key: dedupKey };
  }
  const error = facts.error;
  const summary = `${facts.check.name} failing in suite ${facts.suite.name}${error ? `: ${error.code}${error.step ? ` at ${error.step}` : ''}: ${error.message}` : ''}`;
  return {
    routing_key: settings.routingKey,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: cut(summary, 1024),
      source: `svc suite ${facts.suite.name}`,
      severity: settings.severity,
      timestamp: facts.time,
      component: facts.check.name,
      group: facts.suite.name,
      class: error?.code ?? 'FAILING',
      custom_details: {
        suiteId: facts.suite.id,
        flowId: facts.check.flowId,
        step: error?.step ?? null,
        error: error === null ? null : cut(error.message, MAX_MESSAGE_LENGTH),
        executionId: facts.executionId,
        failingSince: facts.since,
        reminder: facts.event === 'reminder',
      },
    },
    client: 'svc',
    ...(facts.executionUrl === null
      ? {}
      : { client_url: facts.executionUrl, links: [{ href: facts.executionUrl, text: 'svc execution' }] }),
  };
}
