import { type HttpHandler, HttpResponse, http } from 'msw';
import { type MockReply, problemBody } from './respond.js';

/** Options of `scenarios.rateLimited`. */
export interface RateLimitedOptions {
  /** `Retry-After` in seconds. @default 0 */
  retryAfter?: number;
  /** Requests answered 429 before the normal handlers answer again. @default Infinity */
  times?: number;
}

/** Options of `scenarios.flaky`. */
export interface FlakyOptions {
  /** Requests that fail before the normal handlers answer. @default 2 */
  failTimes?: number;
  /** Status of the failures, or `network` for a dropped connection. @default 503 */
  status?: 500 | 502 | 503 | 504 | 'network';
  /** `Retry-After` in seconds on HTTP failures, so retries need not wait. @default 0 */
  retryAfter?: number;
}

const reply = (r: MockReply, requestId: string): Response =>
  new Response(JSON.stringify(problemBody(r.status, requestId, { detail: 'Mocked failure.' })), {
    status: r.status,
    headers: { 'content-type': 'application/problem+json', 'x-request-id': requestId, ...r.headers },
  });

/** Handlers that make every route misbehave, to exercise the SDK's retries. Prepend them with `server.use`. */
export const createScenarios = (baseUrl: string, requestId: () => string) => {
  const all = `${baseUrl.replace(/\/$/, '')}/*`;
  return {
    /** Every request (or the first `times`) gets 429 with `Retry-After`. */
    rateLimited({ retryAfter = 0, times = Number.POSITIVE_INFINITY }: RateLimitedOptions = {}): HttpHandler {
      let seen = 0;
      return http.all(all, () => {
        seen += 1;
        if (seen > times) return undefined;
        return reply({ status: 429, headers: { 'retry-after': String(retryAfter) } }, requestId());
      });
    },
    /** The first `failTimes` requests fail; later ones reach the normal handlers. */
    flaky({ failTimes = 2, status = 503, retryAfter = 0 }: FlakyOptions = {}): HttpHandler {
      let seen = 0;
      return http.all(all, () => {
        seen += 1;
        if (seen > failTimes) return undefined;
        if (status === 'network') return HttpResponse.error();
        return reply({ status, headers: { 'retry-after': String(retryAfter) } }, requestId());
      });
    },
  };
};

/** The retry scenarios of a mock set. */
export type Scenarios = ReturnType<typeof createScenarios>;
