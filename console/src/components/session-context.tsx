import { useQuery } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { ConsoleSession } from '../session.ts';

const SessionContext = createContext<ConsoleSession | undefined>(undefined);

export const SessionProvider = ({ session, children }: { session: ConsoleSession; children: ReactNode }) => (
  <SessionContext.Provider value={session}>{children}</SessionContext.Provider>
);

/** The console's session; components re-render when it signs in or out or changes workspace. */
export const useSession = (): ConsoleSession => {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  useSyncExternalStore(session.subscribe, () => `${session.state}:${session.workspaceId ?? ''}`);
  return session;
};

/** The typed API client of the signed-in session. */
export const useClient = () => useSession().client;

/** Who is signed in (`GET /auth/me`, shared by every page of the session). */
export const useMe = () => {
  const session = useSession();
  return useQuery({ queryKey: ['me', session.workspaceId], queryFn: () => session.client.auth.me() });
};

/** Whether the signed-in role may change things: a READER sees no button that would be refused. */
export const useCanWrite = (): boolean => {
  const role = useMe().data?.role;
  return role !== undefined && role !== 'READER';
};
