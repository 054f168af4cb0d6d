import { fork } from 'node:child_process';
import { once } from 'node:events';
import type { LoadReport } from './load.js';

export type Load = {
  url: string;
  headers?: Record<string, string>;
  seconds: number;
  connections: number;
  /**
   * POST a new Retell `call_ended` per request, signed with this key (`load.ts` builds it): each
   * request a call the server has not seen. `recordingUrl` puts a recording in every call.
   */
  retell?: { key: string; recordingUrl: string | null };
  /** Requests per second across all connections (an open load at a steady rate); unset: as fast as answered. */
  rate?: number;
};

export type Throughput = {
  requestsPerSecond: number;
  requests: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** CPU time (user + system) this process spent per request served: the server's, when it runs here. */
  serverCpuUs: number;
};

/**
 * Drives one URL with autocannon for a fixed time and reports mean throughput and p99 latency.
 * autocannon runs in a child process (`load.ts`): in this one it would share the event loop, and
 * the CPU, of the server it measures.
 */
export const measure = async (load: Load): Promise<Throughput> => {
  const child = fork(new URL('./load.ts', import.meta.url));
  const cpu = process.cpuUsage();
  child.send(load);
  const result = await new Promise<LoadReport>((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code, signal) =>
      reject(new Error(`${load.url}: the load generator exited (${signal ?? code}) without a report`)),
    );
  });
  const used = process.cpuUsage(cpu);
  if (child.exitCode === null) await once(child, 'exit');
  if ('error' in result) throw new Error(`${load.url}: the load generator failed: ${result.error}`);
  return { ...result, serverCpuUs: (used.user + used.system) / Math.max(1, result.requests) };
};

/** JSON over HTTP to a server a bench set up; throws with the body on a non-2xx answer. */
export const json = async (url: string, init: RequestInit & { body?: string } = {}) => {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
};

/** The median of some figures (the mean of the middle two for an even count). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
