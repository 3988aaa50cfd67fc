import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../api/client.js';
import { download, parseFlowFile, toFlowFile } from '../api/flow-file.js';
import { useApi } from '../api/session.js';
import type { FlowDocument, FlowSummary, Page } from '../api/types.js';
import { Link, useRouter } from '../router.js';

const ALL = '\u0000all';
const NO_FOLDER = '\u0000none';

/** The tenant's flows: search, folders, create, duplicate, delete, import and export files. */
export function FlowsPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { navigate } = useRouter();
  const [search, setSearch] = useState('');
  const [folder, setFolder] = useState(ALL);
  const [newName, setNewName] = useState('');
  const [newFolder, setNewFolder] = useState('');
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const flows = useQuery({
    queryKey: ['flows', search],
    queryFn: () =>
      api.get<Page<FlowSummary>>(
        `/api/gateway/flows?limit=200${search ? `&search=${encodeURIComponent(search)}` : ''}`,
      ),
  });
  const folders = useMemo(
    () =>
      [...new Set((flows.data?.items ?? []).map((flow) => flow.folderId).filter((id): id is string => !!id))].sort(),
    [flows.data],
  );
  const shown = (flows.data?.items ?? []).filter((flow) =>
    folder === ALL ? true : folder === NO_FOLDER ? !flow.folderId : flow.folderId === folder,
  );

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['flows'] });
  const fail = (error: unknown) =>
    setMessage({ kind: 'error', text: error instanceof ApiError ? error.message : String(error) });

  const create = useMutation({
    mutationFn: (flow: Partial<FlowDocument>) => api.send<FlowDocument>('POST', '/api/gateway/flows', flow),
    onSuccess: refresh,
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.send('DELETE', `/api/gateway/flows/${encodeURIComponent(id)}`),
    onSuccess: () => {
      setMessage({ kind: 'info', text: 'Flow deleted.' });
      return refresh();
    },
    onError: fail,
  });

  async function submitNew(event: FormEvent) {
    event.preventDefault();
    const made = await create.mutateAsync({
      name: newName.trim(),
      folderId: newFolder.trim() || null,
      nodes: [],
      connections: [],
    });
    setNewName('');
    navigate(`/flows/${encodeURIComponent(made.id!)}`);
  }

  async function duplicate(summary: FlowSummary) {
    const flow = await api.get<FlowDocument>(`/api/gateway/flows/${encodeURIComponent(summary.id)}`);
    const parsed = await parseFlowFile(toFlowFile(flow));
    if (!parsed.ok) return fail(parsed.message);
    await create.mutateAsync({ ...parsed.flow, name: `${flow.name}_copy` });
    setMessage({ kind: 'info', text: `Duplicated as ${flow.name}_copy.` });
  }

  async function exportFlow(summary: FlowSummary) {
    const flow = await api.get<FlowDocument>(`/api/gateway/flows/${encodeURIComponent(summary.id)}`);
    download(`${flow.name}.flow.json`, toFlowFile(flow));
  }

  async function importFile(file: File) {
    const parsed = await parseFlowFile(await file.text(), file.name);
    if (!parsed.ok) return fail(parsed.message);
    const made = await create.mutateAsync(parsed.flow);
    setMessage({ kind: 'info', text: `Imported ${made.name}.` });
  }

  return (
    <div className="flows-page">
      <aside className="folders" aria-label="Folders">
        <h2>Folders</h2>
        <ul>
          {[[ALL, 'All flows'], [NO_FOLDER, 'No folder'], ...folders.map((name) => [name, name])].map(([id, label]) => (
            <li key={id}>
              <button type="button" aria-pressed={folder === id} onClick={() => setFolder(id!)}>
                {label}
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <section className="flows-main">
        <div className="toolbar">
          <h1>Flows</h1>
          <input
            type="search"
            aria-label="Search flows"
            placeholder="Search flows"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <button type="button" onClick={() => fileInput.current?.click()}>
            Import file…
          </button>
          <input
            ref={fileInput}
            type="file"
            accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
            hidden
            aria-label="Flow file to import"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void importFile(file).catch(fail);
              e.target.value = '';
            }}
          />
        </div>
        <form className="new-flow" onSubmit={(e) => void submitNew(e).catch(() => undefined)}>
          <label>
            New flow name
            <input value={newName} onChange={(e) => setNewName(e.target.value)} pattern="[A-Za-z0-9_.\- ]+" required />
          </label>
          <label>
            Folder
            <input value={newFolder} onChange={(e) => setNewFolder(e.target.value)} list="folder-names" />
            <datalist id="folder-names">
              {folders.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
          </label>
          <button type="submit" className="primary" disabled={create.isPending}>
            Create flow
          </button>
        </form>
        {message && (
          <p role={message.kind === 'error' ? 'alert' : 'status'} className={message.kind}>
            {message.text}
          </p>
        )}
        {flows.isError && (
          <p role="alert" className="error">
            {(flows.error as Error).message}
          </p>
        )}
        <table className="list">
          <thead>
            <tr>
              <th>Name</th>
              <th>Folder</th>
              <th>Version</th>
              <th>Updated</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {shown.map((flow) => (
              <tr key={flow.id}>
                <td>
                  <Link to={`/flows/${encodeURIComponent(flow.id)}`}>{flow.name}</Link>
                  {flow.description && <div className="muted small">{flow.description}</div>}
                </td>
                <td>{flow.folderId ?? '—'}</td>
                <td>{flow.version}</td>
                <td>{new Date(flow.updatedAt).toLocaleString()}</td>
                <td className="actions">
                  <button type="button" onClick={() => void duplicate(flow).catch(fail)}>
                    Duplicate
                  </button>
                  <button type="button" onClick={() => void exportFlow(flow).catch(fail)}>
                    Export
                  </button>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => {
                      if (window.confirm(`Delete the flow ${flow.name}?`)) remove.mutate(flow.id);
                    }}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
            {flows.isSuccess && shown.length === 0 && (
              <tr>
                <td colSpan={5} className="muted">
                  No flows here yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </section>
    </div>
  );
}
