import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { ApiError } from '@voice-eval/sdk';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SessionProvider } from './components/session-context.tsx';
import { createConsoleRouter } from './router.tsx';
import { ConsoleSession } from './session.ts';
import './styles.css';

/**
 * Where the console and the API are, written into the page by the server for each request: the
 * `<base href>` is the console's own path, the meta tag the API's (both under any prefix a host
 * app mounts them at).
 */
const basePath = new URL(document.baseURI).pathname.replace(/\/+$/, '');
const apiPath = document.querySelector<HTMLMetaElement>('meta[name="voice-eval-api"]')?.content ?? '/';
const session = new ConsoleSession(new URL(apiPath, window.location.origin).href);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // a client error (404, 403, 422) will not change by asking again
      retry: (failures, error) => failures < 2 && !(error instanceof ApiError && error.status < 500),
      staleTime: 5_000,
    },
  },
});

const router = createConsoleRouter({ basePath, session, queryClient });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <SessionProvider session={session}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </SessionProvider>
  </StrictMode>,
);
