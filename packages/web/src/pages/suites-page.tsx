import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/client.js';
import type { ApiClient } from '../api/client.js';
import { useApi } from '../api/session.js';
import type { Page } from '../api/types.js';
import { suiteRunsOf, type ExecutionSummary, type SuiteRunSummary } from '../suites/suite-runs.js';

interface SuiteSummary {
  id: string;
  name: string;
  description?: string;
  kind?: string;
  mode?: string;
  flowCount: number;
}
interface ScheduleView {
  id: string;
  name: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  target: { type: string; id: string };
  targetName: string | null;
  nextDueTimes: string[];
  lastRun: { at: string; outcome: string; manual: boolean; error: { message: string } | null } | null;
  skippedRuns: number;
  missedRuns: number;
}

/** Runs shown per suite: the newest, from the latest executions of each of its flows. */
const RUNS_SHOWN = 10;
const EXECUTIONS_PER_FLOW = 200;

const when = (iso: string) => new Date(iso).toLocaleString();
const ms = (value: number | null) => (value === null ? '—' : `${value} ms`);

/** Reads a suite's earlier runs from the executions of its flows, whoever started them. */
async function fetchSuiteRuns(api: ApiClient, suiteId: string): Promise<SuiteRunSummary[]> {
  const suite = await api.get<{ flowIds: string[] }>(`/api/gateway/suites/${encodeURIComponent(suiteId)}`);
  const pages = await Promise.all(
    suite.flowIds.map((flowId) =>
      api.get<Page<ExecutionSummary>>(
        `/api/gateway/executions?flowId=${encodeURIComponent(flowId)}&limit=${EXECUTIONS_PER_FLOW}`,
      ),
    ),
  );
  return suiteRunsOf(
    suiteId,
    suite.flowIds.length,
    pages.flatMap((page) => page.items),
  ).slice(0, RUNS_SHOWN);
}

function RunKpis({ run }: { run: SuiteRunSummary }) {
  return (
    <span className="kpis">
      <span className={`run-status run-status-${run.status}`}>{run.status}</span> {Math.round(run.passRate * 100)}% ·{' '}
      {run.passed} passed, {run.failed} failed
      {run.skipped ? `, ${run.skipped} skipped` : ''}
      {run.running ? `, ${run.running} running` : ''} · p95 {ms(run.latency.p95)}
    </span>
  );
}

function SuiteRow({ suite, onRun, running }: { suite: SuiteSummary; onRun(): void; running: boolean }) {
  const api = useApi();
  const runs = useQuery({
    queryKey: ['suite-runs', suite.id],
    queryFn: () => fetchSuiteRuns(api, suite.id),
  });
  const items = runs.data ?? [];
  const last = items[0];
  return (
    <>
      <tr data-suite-name={suite.name}>
        <td>
          {suite.name}
          {suite.description && <div className="muted small">{suite.description}</div>}
        </td>
        <td>{suite.kind ?? '—'}</td>
        <td>{suite.mode ?? '—'}</td>
        <td>{suite.flowCount}</td>
        <td>
          {runs.isError ? (
            <span className="error">{(runs.error as Error).message}</span>
          ) : last ? (
            <>
              <RunKpis run={last} />
              <div className="muted small">
                {when(last.startedAt)}
                {last.startedBy ? ` · by ${last.startedBy}` : ''}
              </div>
            </>
          ) : (
            <span className="muted">{runs.isPending ? 'Loading…' : 'Never run'}</span>
          )}
        </td>
        <td>
          <button type="button" onClick={onRun} disabled={running}>
            {running ? 'Running…' : 'Run suite'}
          </button>
        </td>
      </tr>
      {items.length > 0 && (
        <tr className="history-row">
          <td colSpan={6}>
            <details>
              <summary>Earlier runs ({items.length})</summary>
              <table className="list small" aria-label={`Runs of ${suite.name}`}>
                <thead>
                  <tr>
                    <th>Started</th>
                    <th>By</th>
                    <th>Status</th>
                    <th>Pass rate</th>
                    <th>Passed</th>
                    <th>Failed</th>
                    <th>Skipped</th>
                    <th>Duration</th>
                    <th>p50</th>
                    <th>p95</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((run) => (
                    <tr key={run.runId} data-run-id={run.runId}>
                      <td>{when(run.startedAt)}</td>
                      <td>{run.startedBy ?? '—'}</td>
                      <td>
                        <span className={`run-status run-status-${run.status}`}>{run.status}</span>
                      </td>
                      <td>{Math.round(run.passRate * 100)}%</td>
                      <td>{run.passed}</td>
                      <td>{run.failed}</td>
                      <td>{run.skipped}</td>
                      <td>{ms(run.durationMs)}</td>
                      <td>{ms(run.latency.p50)}</td>
                      <td>{ms(run.latency.p95)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </td>
        </tr>
      )}
    </>
  );
}

/** Suites with their last runs and KPIs (whoever started them), a run button, and the schedules. */
export default function SuitesPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const suites = useQuery({
    queryKey: ['suites'],
    queryFn: () => api.get<Page<SuiteSummary>>('/api/gateway/suites?limit=200'),
  });
  const schedules = useQuery({
    queryKey: ['schedules'],
    queryFn: () => api.get<Page<ScheduleView>>('/api/schedules?all=true&limit=200'),
  });
  const run = useMutation({
    mutationFn: (id: string) => api.send<unknown>('POST', `/api/gateway/suites/${encodeURIComponent(id)}/run`, {}),
    onSuccess: (_, id) => queryClient.invalidateQueries({ queryKey: ['suite-runs', id] }),
    onError: (e) => setError(e instanceof ApiError ? e.message : String(e)),
  });
  return (
    <div className="suites">
      <h1>Suites</h1>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {suites.isError && (
        <p role="alert" className="error">
          {(suites.error as Error).message}
        </p>
      )}
      <table className="list" aria-label="Suites">
        <thead>
          <tr>
            <th>Name</th>
            <th>Kind</th>
            <th>Mode</th>
            <th>Flows</th>
            <th>Last run</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {(suites.data?.items ?? []).map((suite) => (
            <SuiteRow
              key={suite.id}
              suite={suite}
              onRun={() => run.mutate(suite.id)}
              running={run.isPending && run.variables === suite.id}
            />
          ))}
          {suites.isSuccess && suites.data.items.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">
                No suites yet (svc run suite, or POST /api/gateway/suites).
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <h2>Schedules</h2>
      {schedules.isError && (
        <p role="alert" className="error">
          {(schedules.error as Error).message}
        </p>
      )}
      <table className="list" aria-label="Schedules">
        <thead>
          <tr>
            <th>Name</th>
            <th>Cron</th>
            <th>Target</th>
            <th>State</th>
            <th>Next due</th>
            <th>Last run</th>
          </tr>
        </thead>
        <tbody>
          {(schedules.data?.items ?? []).map((schedule) => (
            <tr key={schedule.id} data-schedule-name={schedule.name}>
              <td>{schedule.name}</td>
              <td>
                <code>{schedule.cron}</code> <span className="muted small">{schedule.timezone}</span>
              </td>
              <td>
                {schedule.target.type} {schedule.targetName ?? <span className="error">(deleted)</span>}
              </td>
              <td>{schedule.enabled ? 'active' : 'paused'}</td>
              <td>
                {schedule.nextDueTimes.length ? (
                  <ol className="due-times">
                    {schedule.nextDueTimes.map((time) => (
                      <li key={time}>
                        <time dateTime={time}>{when(time)}</time>
                      </li>
                    ))}
                  </ol>
                ) : (
                  '—'
                )}
              </td>
              <td>
                {schedule.lastRun ? (
                  <>
                    {schedule.lastRun.outcome} · {when(schedule.lastRun.at)}
                    {schedule.lastRun.manual ? ' (by hand)' : ''}
                    {schedule.lastRun.error && <div className="error small">{schedule.lastRun.error.message}</div>}
                  </>
                ) : (
                  '—'
                )}
                {schedule.skippedRuns + schedule.missedRuns > 0 && (
                  <div className="muted small">
                    {schedule.skippedRuns} skipped, {schedule.missedRuns} missed
                  </div>
                )}
              </td>
            </tr>
          ))}
          {schedules.isSuccess && schedules.data.items.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">
                No schedules yet (svc schedules, or POST /api/schedules).
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
