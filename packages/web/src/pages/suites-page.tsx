import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/client.js';
import { useApi } from '../api/session.js';
import type { Page } from '../api/types.js';

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
  timezone?: string;
  enabled: boolean;
  target: { type: string; id: string };
  nextDueTimes?: string[];
}

/** Suites with a run button and their KPIs, and the schedules with their next due times. */
export default function SuitesPage() {
  const api = useApi();
  const [results, setResults] = useState<Record<string, unknown>>({});
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
    onSuccess: (result, id) => setResults((current) => ({ ...current, [id]: result })),
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
      <table className="list">
        <thead>
          <tr>
            <th>Name</th>
            <th>Kind</th>
            <th>Flows</th>
            <th>Last run here</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {(suites.data?.items ?? []).map((suite) => (
            <tr key={suite.id}>
              <td>
                {suite.name}
                {suite.description && <div className="muted small">{suite.description}</div>}
              </td>
              <td>{suite.kind ?? '—'}</td>
              <td>{suite.flowCount}</td>
              <td>
                {results[suite.id] !== undefined && (
                  <pre className="code small">
                    {JSON.stringify((results[suite.id] as { kpis?: unknown }).kpis ?? results[suite.id], null, 2)}
                  </pre>
                )}
              </td>
              <td>
                <button
                  type="button"
                  onClick={() => run.mutate(suite.id)}
                  disabled={run.isPending && run.variables === suite.id}
                >
                  Run suite
                </button>
              </td>
            </tr>
          ))}
          {suites.isSuccess && suites.data.items.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">
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
      <table className="list">
        <thead>
          <tr>
            <th>Name</th>
            <th>Cron</th>
            <th>Target</th>
            <th>State</th>
            <th>Next due</th>
          </tr>
        </thead>
        <tbody>
          {(schedules.data?.items ?? []).map((schedule) => (
            <tr key={schedule.id}>
              <td>{schedule.name}</td>
              <td>
                <code>{schedule.cron}</code> {schedule.timezone ?? ''}
              </td>
              <td>
                {schedule.target.type} {schedule.target.id}
              </td>
              <td>{schedule.enabled ? 'active' : 'paused'}</td>
              <td>{(schedule.nextDueTimes ?? []).map((t) => new Date(t).toLocaleString()).join(', ') || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
