import { createClientBodySchema, SCOPES } from '@svc/gateway/client-schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client.js';
import { useApi } from '../api/session.js';
import type { ClientView, Page, TenantView } from '../api/types.js';

const when = (iso: string | null) => (iso === null ? '—' : new Date(iso).toLocaleString());

/** A secret shown once, with a copy button: the server never shows it again. */
function SecretOnce({ client, onDone }: { client: ClientView; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="alertdialog" aria-labelledby="secret-title" className="dialog secret-dialog">
      <h2 id="secret-title">Secret of {client.name}</h2>
      <p>Copy it now: it is shown this once.</p>
      <p>
        Client id <code>{client.clientId}</code>
      </p>
      <div className="secret-row">
        <code className="secret" data-testid="client-secret">
          {client.clientSecret}
        </code>
        <button
          type="button"
          onClick={() =>
            void navigator.clipboard?.writeText(client.clientSecret ?? '').then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {client.previousSecretExpiresAt && (
        <p>The previous secret keeps working until {when(client.previousSecretExpiresAt)}.</p>
      )}
      <button type="button" className="primary" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

/** Backoffice → API Keys & Clients: tenants (operator), the tenant's clients, create, rotate, revoke. */
export default function BackofficePage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [tenantId, setTenantId] = useState('');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['flows:read', 'executions:run']);
  const [trial, setTrial] = useState(false);
  const [shown, setShown] = useState<ClientView | null>(null);
  const [error, setError] = useState<string | null>(null);

  const tenants = useQuery({
    queryKey: ['tenants'],
    queryFn: () => api.get<Page<TenantView>>('/api/backoffice/tenants'),
  });
  const clients = useQuery({
    queryKey: ['clients', tenantId],
    queryFn: () =>
      api.get<Page<ClientView>>(
        `/api/backoffice/clients${tenantId ? `?tenantId=${encodeURIComponent(tenantId)}` : ''}`,
      ),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['clients'] });
  const fail = (e: unknown) => setError(e instanceof ApiError ? e.message : String(e));

  const create = useMutation({
    mutationFn: (body: unknown) => api.send<ClientView>('POST', '/api/backoffice/clients', body),
    onSuccess: (made) => {
      setShown(made);
      setName('');
      return refresh();
    },
    onError: fail,
  });
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'rotate' | 'revoke' }) =>
      api.send<ClientView>('POST', `/api/backoffice/clients/${encodeURIComponent(id)}/${action}`),
    onSuccess: (client, { action }) => {
      if (action === 'rotate') setShown(client);
      return refresh();
    },
    onError: fail,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const body = { name: name.trim(), scopes, ...(trial ? { trial } : {}), ...(tenantId ? { tenantId } : {}) };
    const parsed = createClientBodySchema.safeParse(body);
    if (!parsed.success) {
      setError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '));
      return;
    }
    create.mutate(parsed.data);
  }

  return (
    <div className="backoffice">
      <h1>API Keys &amp; Clients</h1>
      {tenants.isSuccess && (
        <label className="inline">
          Tenant
          <select value={tenantId} onChange={(e) => setTenantId(e.target.value)}>
            <option value="">My tenant</option>
            {tenants.data.items.map((tenant) => (
              <option key={tenant.id} value={tenant.id}>
                {tenant.name} ({tenant.id})
              </option>
            ))}
          </select>
        </label>
      )}
      <form className="card" onSubmit={submit} aria-labelledby="new-client-title">
        <h2 id="new-client-title">New client</h2>
        <label>
          Client name
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <fieldset className="scopes">
          <legend>Scopes</legend>
          {SCOPES.map((scope) => (
            <label key={scope} className="check">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) => setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
              />
              {scope}
            </label>
          ))}
        </fieldset>
        <label className="check">
          <input type="checkbox" checked={trial} onChange={(e) => setTrial(e.target.checked)} />
          Trial (expires)
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          Create client
        </button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {clients.isError && (
        <p role="alert" className="error">
          {(clients.error as Error).message}
        </p>
      )}
      <table className="list">
        <thead>
          <tr>
            <th>Name</th>
            <th>Client id</th>
            <th>Scopes</th>
            <th>Trial / expiry</th>
            <th>Old secret valid until</th>
            <th>State</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {(clients.data?.items ?? []).map((client) => (
            <tr key={client.clientId}>
              <td>{client.name}</td>
              <td>
                <code>{client.clientId}</code>
              </td>
              <td className="small">{client.scopes.join(' ')}</td>
              <td>{client.trial ? `trial, ${when(client.expiresAt)}` : when(client.expiresAt)}</td>
              <td>{when(client.previousSecretExpiresAt)}</td>
              <td>{client.revokedAt ? `revoked ${when(client.revokedAt)}` : 'active'}</td>
              <td className="actions">
                {!client.revokedAt && (
                  <>
                    <button type="button" onClick={() => act.mutate({ id: client.clientId, action: 'rotate' })}>
                      Rotate
                    </button>
                    <button
                      type="button"
                      className="danger"
                      onClick={() => {
                        if (window.confirm(`Revoke ${client.name}? Its secret stops working at once.`))
                          act.mutate({ id: client.clientId, action: 'revoke' });
                      }}
                    >
                      Revoke
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown && <SecretOnce client={shown} onDone={() => setShown(null)} />}
    </div>
  );
}
