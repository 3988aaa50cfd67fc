import {
  MAX_OPENAPI_DOCUMENT_CHARS,
  requirementSchema,
  type CatalogEntry,
  type CatalogImportSummary,
  type OpenApiProblem,
  type Roadmap,
} from '@svc/discovery/wire-schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../api/client.js';
import { useApi } from '../api/session.js';
import type { FlowDocument, Page } from '../api/types.js';
import { lowConfidenceNotes } from '../catalog/roadmap-notes.js';
import { useRouter } from '../router.js';

const percent = (value: number) => `${Math.round(value * 100)}%`;

/** An API error as text, with the problems an invalid document or roadmap lists, each with where. */
function describeError(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [String(error)];
  const problems = (error.details as { problems?: OpenApiProblem[] } | undefined)?.problems ?? [];
  return [error.message, ...problems.slice(0, 20).map((problem) => `${problem.path} ${problem.message}`.trim())];
}

function Errors({ lines }: { lines: string[] }) {
  return (
    <div role="alert" className="error">
      {lines.map((line, index) => (
        <div key={index}>{line}</div>
      ))}
    </div>
  );
}

function ImportSpec() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: async (chosen: File) => {
      const document = await chosen.text();
      if (document.length > MAX_OPENAPI_DOCUMENT_CHARS) {
        throw new Error(`the file has more than ${MAX_OPENAPI_DOCUMENT_CHARS} characters`);
      }
      return api.send<CatalogImportSummary>('POST', '/api/gateway/catalog/import', {
        document,
        fileName: chosen.name,
        ...(name.trim() ? { name: name.trim() } : {}),
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['catalog'] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) upload.mutate(file);
  };
  const summary = upload.data;
  return (
    <form className="card" onSubmit={submit} aria-labelledby="import-title">
      <h2 id="import-title">Import an OpenAPI file</h2>
      <p className="muted small">
        OpenAPI 3.0 or 3.1, or Swagger 2.0, as JSON or YAML. The same name again replaces it.
      </p>
      <div className="row-inline">
        <label>
          OpenAPI file
          <input
            ref={fileInput}
            type="file"
            accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            required
          />
        </label>
        <label>
          Spec name (optional)
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} placeholder="info.title" />
        </label>
        <button type="submit" className="primary" disabled={!file || upload.isPending}>
          {upload.isPending ? 'Importing…' : 'Import'}
        </button>
      </div>
      {upload.isError && <Errors lines={describeError(upload.error)} />}
      {summary && (
        <p role="status" className="ok">
          Imported {summary.spec.name} ({summary.spec.endpointCount} endpoints): {summary.added.length} endpoint(s)
          added, {summary.changed.length} changed, {summary.removed.length} removed.
        </p>
      )}
    </form>
  );
}

function EndpointRow({ endpoint }: { endpoint: CatalogEntry }) {
  return (
    <tr>
      <td>
        <span className={`method method-${endpoint.method.toLowerCase()}`}>{endpoint.method}</span>
      </td>
      <td>
        <details>
          <summary>
            <code>{endpoint.path}</code>
          </summary>
          <div className="small">
            <div>
              id <code>{endpoint.id}</code>
            </div>
            {endpoint.description && <p className="muted">{endpoint.description}</p>}
            {endpoint.parameters.length > 0 && (
              <ul>
                {endpoint.parameters.map((parameter) => (
                  <li key={`${parameter.in}:${parameter.name}`}>
                    <code>{parameter.name}</code> in {parameter.in}
                    {parameter.required ? ', required' : ''}
                  </li>
                ))}
              </ul>
            )}
            {endpoint.requestBody && <div>Body: {endpoint.requestBody.contentType}</div>}
            <div>Responses: {Object.keys(endpoint.responses).join(', ') || '—'}</div>
          </div>
        </details>
      </td>
      <td>{endpoint.summary}</td>
      <td>{endpoint.tags.join(', ')}</td>
      <td>{endpoint.specId}</td>
    </tr>
  );
}

function Endpoints() {
  const api = useApi();
  const [search, setSearch] = useState('');
  const endpoints = useQuery({
    queryKey: ['catalog', 'endpoints', search],
    queryFn: () =>
      api.get<Page<CatalogEntry>>(
        `/api/gateway/catalog/endpoints?limit=200${search ? `&search=${encodeURIComponent(search)}` : ''}`,
      ),
  });
  const items = endpoints.data?.items ?? [];
  return (
    <section className="card wide" aria-labelledby="endpoints-title">
      <div className="toolbar">
        <h2 id="endpoints-title">Endpoints</h2>
        <input
          type="search"
          aria-label="Search endpoints"
          placeholder="Search endpoints"
          value={search}
          maxLength={200}
          onChange={(e) => setSearch(e.target.value)}
        />
        <span className="muted small">
          {items.length}
          {endpoints.data?.nextCursor ? '+' : ''} shown
        </span>
      </div>
      {endpoints.isError && <Errors lines={describeError(endpoints.error)} />}
      <table className="list" aria-label="Catalog endpoints">
        <thead>
          <tr>
            <th>Method</th>
            <th>Path</th>
            <th>Summary</th>
            <th>Tags</th>
            <th>Spec</th>
          </tr>
        </thead>
        <tbody>
          {items.map((endpoint) => (
            <EndpointRow key={`${endpoint.specId}:${endpoint.id}`} endpoint={endpoint} />
          ))}
          {endpoints.isSuccess && items.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">
                {search ? 'No endpoint matches.' : 'The catalog is empty: import an OpenAPI file.'}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

function RoadmapView({ roadmap }: { roadmap: Roadmap }) {
  const notes = lowConfidenceNotes(roadmap);
  return (
    <div className="roadmap" aria-label="Roadmap">
      <p>
        Confidence <strong data-testid="roadmap-confidence">{percent(roadmap.confidence)}</strong> · decided by{' '}
        {roadmap.decidedBy}
      </p>
      {notes.length > 0 && (
        <ul className="roadmap-notes" aria-label="Low-confidence notes">
          {notes.map((note, index) => (
            <li key={index} data-about={note.about}>
              {note.text}
            </li>
          ))}
        </ul>
      )}
      <h3>Steps</h3>
      <ol className="roadmap-steps" aria-label="Roadmap steps">
        {roadmap.steps.map((step) => (
          <li key={step.name}>
            <strong>{step.name}</strong>{' '}
            <code>
              {step.method} {step.path}
            </code>{' '}
            <span className="badge">{step.role}</span> <span className="muted">{percent(step.score)}</span>
            <div className="muted small">{step.reason}</div>
          </li>
        ))}
      </ol>
      {roadmap.bindings.length > 0 && (
        <>
          <h3>Bindings</h3>
          <table className="list small" aria-label="Roadmap bindings">
            <thead>
              <tr>
                <th>Value</th>
                <th>Goes to</th>
                <th>Confidence</th>
                <th>Why</th>
              </tr>
            </thead>
            <tbody>
              {roadmap.bindings.map((binding, index) => (
                <tr key={index}>
                  <td>
                    <code>{binding.expression}</code>
                  </td>
                  <td>
                    {binding.to.step} · {binding.to.in} <code>{binding.to.name}</code>
                  </td>
                  <td>{percent(binding.confidence)}</td>
                  <td className="muted">{binding.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {roadmap.inputs.length > 0 && (
        <>
          <h3>Inputs</h3>
          <ul className="small">
            {roadmap.inputs.map((input) => (
              <li key={input.name}>
                <code>flowVars.{input.name}</code> {input.required ? '(required)' : ''} {input.description}
                {input.example !== undefined && (
                  <>
                    {' '}
                    · example <code>{JSON.stringify(input.example)}</code>
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      <h3>Candidates</h3>
      {roadmap.actions.map((action, actionIndex) => (
        <details key={actionIndex} className="action" open={actionIndex === 0}>
          <summary>“{action.phrase}”</summary>
          <table className="list small" aria-label={`Candidates for ${action.phrase}`}>
            <thead>
              <tr>
                <th>Endpoint</th>
                <th>Score</th>
                <th>Reasons</th>
              </tr>
            </thead>
            <tbody>
              {action.candidates.map((candidate, index) => (
                <tr key={candidate.endpointId} className={index === action.chosen ? 'chosen' : undefined}>
                  <td>
                    <code>
                      {candidate.method} {candidate.path}
                    </code>
                    {index === action.chosen && <span className="badge"> chosen</span>}
                    <div className="muted">{candidate.summary}</div>
                  </td>
                  <td>{percent(candidate.score)}</td>
                  <td className="muted">{candidate.reasons.join('; ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ))}
    </div>
  );
}

function Discovery() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { navigate } = useRouter();
  const [requirement, setRequirement] = useState('');
  const [flowName, setFlowName] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const plan = useMutation({
    mutationFn: (text: string) => api.send<Roadmap>('POST', '/api/gateway/discovery/roadmaps', { requirement: text }),
  });
  const scaffold = useMutation({
    mutationFn: (roadmap: Roadmap) =>
      api.send<{ flow: FlowDocument; roadmap: Roadmap }>('POST', '/api/gateway/discovery/scaffolds', {
        roadmap,
        ...(flowName.trim() ? { name: flowName.trim() } : {}),
      }),
    onSuccess: ({ flow }) => {
      void queryClient.invalidateQueries({ queryKey: ['flows'] });
      navigate(`/flows/${encodeURIComponent(flow.id!)}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = requirementSchema.safeParse(requirement);
    if (!parsed.success) {
      setInvalid(`The requirement: ${parsed.error.issues[0]!.message}`);
      return;
    }
    setInvalid(null);
    scaffold.reset();
    plan.mutate(parsed.data);
  };
  return (
    <section className="card wide" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan a flow from a requirement</h2>
      <form onSubmit={submit} className="plan-form">
        <label>
          Requirement
          <textarea
            rows={2}
            value={requirement}
            onChange={(e) => setRequirement(e.target.value)}
            placeholder="create an order for a new customer, then ship it"
          />
        </label>
        <button type="submit" className="primary" disabled={plan.isPending}>
          {plan.isPending ? 'Planning…' : 'Plan'}
        </button>
      </form>
      {invalid && <Errors lines={[invalid]} />}
      {plan.isError && <Errors lines={describeError(plan.error)} />}
      {plan.data && (
        <>
          <RoadmapView roadmap={plan.data} />
          <div className="row-inline">
            <label>
              Flow name (optional)
              <input value={flowName} onChange={(e) => setFlowName(e.target.value)} maxLength={200} />
            </label>
            <button
              type="button"
              className="run"
              onClick={() => scaffold.mutate(plan.data)}
              disabled={scaffold.isPending}
            >
              {scaffold.isPending ? 'Scaffolding…' : 'Scaffold onto the canvas'}
            </button>
          </div>
          {scaffold.isError && <Errors lines={describeError(scaffold.error)} />}
        </>
      )}
    </section>
  );
}

/** The tenant's API catalog: import OpenAPI files, browse endpoints, plan and scaffold flows. */
export default function CatalogPage() {
  return (
    <div className="catalog">
      <h1>Catalog &amp; discovery</h1>
      <ImportSpec />
      <Discovery />
      <Endpoints />
    </div>
  );
}
