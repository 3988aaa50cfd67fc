import { useState, type FormEvent } from 'react';
import { ApiError, createApiClient, requestAccessToken, type Credential } from '../api/client.js';

type Method = 'client' | 'apiKey';

/**
 * Sign-in with a client id and secret (exchanged at /oauth/token for an access token) or with an
 * API key. The credential is kept in memory only: a reload asks again.
 */
export function SignInPage({ onSignedIn }: { onSignedIn: (credential: Credential, label: string) => void }) {
  const [method, setMethod] = useState<Method>('client');
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (method === 'client') {
        const accessToken = await requestAccessToken(clientId.trim(), secret);
        onSignedIn({ kind: 'token', accessToken }, clientId.trim());
      } else {
        const credential: Credential = { kind: 'apiKey', key: apiKey.trim() };
        // A cheap read proves the key before the page is shown.
        await createApiClient(credential, () => undefined).get('/api/gateway/flows?limit=1');
        onSignedIn(credential, 'API key');
      }
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'the server could not be reached');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to svc</h1>
        <div role="radiogroup" aria-label="Sign in with" className="segmented">
          <label>
            <input type="radio" name="method" checked={method === 'client'} onChange={() => setMethod('client')} />
            Client id and secret
          </label>
          <label>
            <input type="radio" name="method" checked={method === 'apiKey'} onChange={() => setMethod('apiKey')} />
            API key
          </label>
        </div>
        {method === 'client' ? (
          <>
            <label>
              Client id
              <input value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="username" required />
            </label>
            <label>
              Client secret
              <input
                type="password"
                value={secret}
                onChange={(e) => setSecret(e.target.value)}
                autoComplete="current-password"
                required
              />
            </label>
          </>
        ) : (
          <label>
            API key
            <input type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} required />
          </label>
        )}
        {error !== null && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted small">The credential stays in this tab's memory and is gone on reload.</p>
      </form>
    </main>
  );
}
