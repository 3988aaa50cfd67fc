import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { createApiClient, type Credential } from './api/client.js';
import { SessionContext, type Session } from './api/session.js';
import { FlowsPage } from './pages/flows-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { Link, RouterProvider, useRouter } from './router.js';

// The canvas and the other pages load when first opened: the sign-in and the list stay small.
const CanvasPage = lazy(() => import('./pages/canvas-page.js'));
const BackofficePage = lazy(() => import('./pages/backoffice-page.js'));
const SuitesPage = lazy(() => import('./pages/suites-page.js'));
const CatalogPage = lazy(() => import('./pages/catalog-page.js'));

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 5_000 } },
});

function Pages() {
  const { path } = useRouter();
  const flow = /^\/flows\/([^/]+)$/.exec(path);
  if (flow) return <CanvasPage flowId={decodeURIComponent(flow[1]!)} />;
  if (path === '/backoffice') return <BackofficePage />;
  if (path === '/suites') return <SuitesPage />;
  if (path === '/catalog') return <CatalogPage />;
  return <FlowsPage />;
}

function Shell({ session }: { session: Session }) {
  return (
    <SessionContext.Provider value={session}>
      <div className="shell">
        <header className="topbar">
          <span className="brand">svc</span>
          <nav aria-label="Main">
            <Link to="/">Flows</Link>
            <Link to="/catalog">Catalog</Link>
            <Link to="/suites">Suites &amp; schedules</Link>
            <Link to="/backoffice">Backoffice</Link>
          </nav>
          <span className="who">{session.label}</span>
          <button type="button" onClick={session.signOut}>
            Sign out
          </button>
        </header>
        <main className="page">
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <Pages />
          </Suspense>
        </main>
      </div>
    </SessionContext.Provider>
  );
}

/** The web app: sign-in first, then the pages, all on the REST API of the same origin. */
export function App() {
  const [signedIn, setSignedIn] = useState<{ credential: Credential; label: string } | null>(null);
  const session = useMemo<Session | null>(() => {
    if (signedIn === null) return null;
    const signOut = () => {
      queryClient.clear();
      setSignedIn(null);
    };
    return { api: createApiClient(signedIn.credential, signOut), label: signedIn.label, signOut };
  }, [signedIn]);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider>
        {session === null ? (
          <SignInPage onSignedIn={(credential, label) => setSignedIn({ credential, label })} />
        ) : (
          <Shell session={session} />
        )}
      </RouterProvider>
    </QueryClientProvider>
  );
}
