import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';

interface Router {
  path: string;
  navigate(path: string): void;
}

const RouterContext = createContext<Router>({ path: '/', navigate: () => undefined });

/** The page's location in the address bar: pushState on navigation, popstate on back/forward. */
export function RouterProvider({ children }: { children: ReactNode }) {
  const [path, setPath] = useState(() => window.location.pathname);
  useEffect(() => {
    const onPop = () => setPath(window.location.pathname);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((next: string) => {
    window.history.pushState(null, '', next);
    setPath(next);
  }, []);
  return <RouterContext.Provider value={{ path, navigate }}>{children}</RouterContext.Provider>;
}

export const useRouter = (): Router => useContext(RouterContext);

/** A link that navigates inside the page (and still opens in a new tab on a modified click). */
export function Link({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  const { navigate, path } = useRouter();
  return (
    <a
      href={to}
      className={className}
      aria-current={path === to ? 'page' : undefined}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
