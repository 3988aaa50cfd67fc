import { useState } from 'react';
import type { ExecutionView, StepView } from '../api/types.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

function StepDetails({ step }: { step: StepView }) {
  return (
    <div className="step-details" aria-label={`Step ${step.nodeName}`} role="region">
      <h3>
        {step.nodeName}{' '}
        <span className="muted">
          {step.scope || 'top level'} · attempt {step.attempt}
        </span>
      </h3>
      {step.error && (
        <p className="error">
          {step.error.code}: {step.error.message}
        </p>
      )}
      {step.skipKind && (
        <p className="muted">Skipped ({step.skipKind === 'condition' ? 'branch not taken' : 'after a failure'}).</p>
      )}
      {step.branch && <p>Branch: {step.branch}</p>}
      {step.request != null && (
        <>
          <h4>Request</h4>
          <pre className="code">{json(step.request)}</pre>
        </>
      )}
      {step.response != null && (
        <>
          <h4>Response {step.response.status}</h4>
          <pre className="code step-response">{json(step.response)}</pre>
        </>
      )}
      {step.output != null && step.response == null && (
        <>
          <h4>Output</h4>
          <pre className="code">{json(step.output)}</pre>
        </>
      )}
    </div>
  );
}

/** The execution's trace: a timeline of steps (scope, attempt, latency), each step's request and response, the waits. */
export function TracePanel({ execution, onClose }: { execution: ExecutionView; onClose(): void }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const steps = execution.steps ?? [];
  const step = steps.find((s) => s.stepId === chosen);
  const start = steps.length ? Date.parse(steps[0]!.startedAt) : 0;
  const total = Math.max(1, ...steps.map((s) => Date.parse(s.endedAt ?? s.startedAt) - start));
  return (
    <section className="trace-panel" aria-label="Execution trace">
      <header>
        <strong>Execution {execution.executionId}</strong>
        <span className={`status status-${execution.status}`} data-execution-status={execution.status}>
          {execution.status}
        </span>
        <span className="muted">
          {execution.nodesExecuted} ran · {execution.nodesSkipped} skipped · {execution.durationMs ?? '…'} ms
        </span>
        {execution.error && <span className="error">{execution.error.message}</span>}
        <button type="button" onClick={onClose} aria-label="Close the trace">
          ×
        </button>
      </header>
      <div className="trace-body">
        <table className="timeline">
          <thead>
            <tr>
              <th>#</th>
              <th>Node</th>
              <th>Scope</th>
              <th>Attempt</th>
              <th>Status</th>
              <th>Latency</th>
              <th>Timeline</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((s) => {
              const offset = Date.parse(s.startedAt) - start;
              const width = Math.max(0.5, ((s.latencyMs ?? 0) / total) * 100);
              return (
                <tr key={s.stepId} className={`${s.stepId === chosen ? 'chosen' : ''} step-status-${s.status}`}>
                  <td>{s.seq}</td>
                  <td>
                    <button type="button" className="link" onClick={() => setChosen(s.stepId)}>
                      {s.nodeName}
                    </button>
                  </td>
                  <td>{s.scope || '—'}</td>
                  <td>{s.attempt}</td>
                  <td>{s.status}</td>
                  <td>{s.latencyMs != null ? `${s.latencyMs} ms` : '—'}</td>
                  <td className="bar-cell">
                    <span
                      className={`bar bar-${s.status}`}
                      style={{ marginLeft: `${(offset / total) * 100}%`, width: `${width}%` }}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {(execution.waits ?? []).length > 0 && (
          <div className="waits">
            <h4>Waiting for</h4>
            <ul>
              {execution.waits!.map((wait) => (
                <li key={`${wait.nodeId}${wait.scope}`}>
                  {wait.nodeName}: {wait.kind === 'callback' ? <code>{wait.callbackUrl}</code> : 'a timer'}
                  {wait.until && <span className="muted"> until {new Date(wait.until).toLocaleTimeString()}</span>}
                </li>
              ))}
            </ul>
          </div>
        )}
        {step && <StepDetails step={step} />}
      </div>
    </section>
  );
}
