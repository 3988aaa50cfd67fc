import { createContext, useContext } from 'react';
import type { ApiClient } from './client.js';

/** The signed-in page's API client; the credential lives only in memory, for this tab. */
export interface Session {
  api: ApiClient;
  /** What the credential was: shown in the header. */
  label: string;
  signOut(): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession is used outside a signed-in page');
  return session;
}

export const useApi = (): ApiClient => useSession().api;
