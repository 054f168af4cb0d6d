import type { Deps } from '../../deps.js';
import type { AddressPolicy } from '../../net/address-policy.js';
import { safeFetch } from '../../net/safe-fetch.js';
import { type DuePoll, ingestIntegration, recordPoll } from '../integrations/service.js';
import { apiFailure } from '../integrations/test-connection.js';
import { landCall } from './land.js';
import { earliest, type ListRequest } from './platforms/incoming.js';
import { CALL_LISTS, type CallList, type IncomingCall, type IngestSecrets } from './platforms/index.js';
import { knownExternalIds } from './repo.js';

/** The platforms whose recent calls are listed (ElevenLabs' only when its integration has the API key). */
export const POLLED_PLATFORMS: readonly string[] = Object.keys(CALL_LISTS);

/** Pages one poll reads at most; a longer listing keeps its window's start and is read again next time. */
const MAX_PAGES = 50;

/** Largest page accepted: a hundred calls with their transcripts. */
const MAX_PAGE_BYTES = 32 * 1024 * 1024;

/**
 * The next poll starts this long before the earliest call still under way (or before this poll),
 * so a call the platform stamps a little earlier than our clock says is still listed.
 */
const OVERLAP_MS = 10 * 60_000;

/** Why a poll failed: `unauthorized`, `platform_error`, `unreachable`, or `internal` (see the log). */
export type PollError = { code: string; message: string };

/** What a poll did: how many finished calls were listed and how many of them were new and landed. */
export type PollOutcome =
  | { ok: true; listed: number; landed: number; cursor: Date }
  | { ok: false; error: PollError };

type Listing = { calls: IncomingCall[]; unfinishedSince: Date | null; complete: boolean };

const API_URLS = {
  vapi: 'vapiApiUrl',
  retell: 'retellApiUrl',
  twilio: 'twilioApiUrl',
  elevenlabs: 'elevenlabsApiUrl',
} as const;

const apiUrlOf = (deps: Deps, platform: string): string =>
  deps.config[API_URLS[platform as keyof typeof API_URLS]];

/** One request to the platform's API, through the SSRF-safe fetch without redirects (a key never leaves the API). */
const fetchJson = async (
  deps: Deps,
  policy: AddressPolicy,
  platform: string,
  request: ListRequest,
  signal: AbortSignal,
): Promise<{ body: unknown } | (PollError & { status?: number })> => {
  const answer = await safeFetch(request.url, {
    policy,
    redirect: 'refuse',
    maxBytes: MAX_PAGE_BYTES,
    timeoutMs: deps.config.fetchTimeoutMs,
    method: request.method,
    headers: { accept: 'application/json', ...request.headers },
    body: request.body,
    signal,
  });
  if (!answer.ok) return { ...apiFailure(platform, answer), status: answer.status };
  try {
    return { body: JSON.parse(answer.bytes.toString('utf8')) };
  } catch {
    return { code: 'platform_error', message: `${platform} answered with something else than JSON.` };
  }
};

/** Reads the listing page by page. */
const listCalls = async (
  deps: Deps,
  policy: AddressPolicy,
  platform: string,
  list: CallList,
  first: ListRequest,
  signal: AbortSignal,
): Promise<Listing | PollError> => {
  const apiUrl = apiUrlOf(deps, platform);
  const listing: Listing = { calls: [], unfinishedSince: null, complete: false };
  let request: ListRequest | null = first;
  for (let pages = 0; request && pages < MAX_PAGES; pages++) {
    const answer = await fetchJson(deps, policy, platform, request, signal);
    if (!('body' in answer)) return { code: answer.code, message: answer.message };
    const page = list.page(answer.body, request, apiUrl);
    listing.calls.push(...page.calls);
    listing.unfinishedSince = earliest(listing.unfinishedSince, page.unfinishedSince);
    request = page.next;
  }
  listing.complete = request === null;
  return listing;
};

/** The listed calls that have not landed yet, once each, oldest first (the order they happened in). */
const newCalls = async (deps: Deps, organizationId: string, platform: string, calls: IncomingCall[]) => {
  const byId = new Map<string, IncomingCall>();
  for (const call of calls) if (!byId.has(call.external_call_id)) byId.set(call.external_call_id, call);
  const known = await knownExternalIds(deps.db, organizationId, platform, [...byId.keys()]);
  return [...byId.values()]
    .filter((call) => !known.has(call.external_call_id))
    .sort((a, b) => (a.started_at?.getTime() ?? 0) - (b.started_at?.getTime() ?? 0));
};

/**
 * The call as its platform describes it alone, for a listing that carries no transcripts; null
 * when the platform no longer has it (404) or it carries no finished call.
 */
const readDetail = async (
  deps: Deps,
  policy: AddressPolicy,
  platform: string,
  detail: NonNullable<CallList['detail']>,
  secrets: IngestSecrets,
  call: IncomingCall,
  signal: AbortSignal,
): Promise<IncomingCall | null | PollError> => {
  const request = detail.request(apiUrlOf(deps, platform), secrets, call.external_call_id);
  const answer = await fetchJson(deps, policy, platform, request, signal);
  if (!('body' in answer))
    return answer.status === 404 ? null : { code: answer.code, message: answer.message };
  const read = detail.parse(answer.body);
  return 'ignored' in read ? null : read;
};

/**
 * One poll: lists the platform's calls since the integration's cursor (at most the lookback) and
 * lands the finished ones not landed yet, as its webhook would have, on the integration's agent.
 * Null when there is nothing to poll any more (the integration went inactive or lost its agent).
 */
const poll = async (
  deps: Deps,
  policy: AddressPolicy,
  due: DuePoll,
  now: Date,
  signal: AbortSignal,
): Promise<PollOutcome | null> => {
  const integration = await ingestIntegration(deps, due.id);
  const list = CALL_LISTS[due.platform as keyof typeof CALL_LISTS];
  if (!integration?.agent || !list) return null;
  const floor = now.getTime() - deps.config.reconcileLookbackMs;
  const from = new Date(Math.max(floor, due.poll_cursor?.getTime() ?? floor));
  const first = list.first(apiUrlOf(deps, due.platform), integration.secrets, from);
  if ('missing' in first) return { ok: false, error: { code: 'unauthorized', message: first.missing } };
  const listing = await listCalls(deps, policy, due.platform, list, first, signal);
  if (!('calls' in listing)) return { ok: false, error: listing };
  const fresh = await newCalls(deps, integration.organization_id, due.platform, listing.calls);
  let landed = 0;
  for (const listed of fresh) {
    if (signal.aborted) break;
    const call = list.detail
      ? await readDetail(deps, policy, due.platform, list.detail, integration.secrets, listed, signal)
      : listed;
    // a call that cannot be read now is listed again by the next poll, which starts here
    if (call && 'code' in call) return { ok: false, error: call };
    if (!call) continue;
    // merge: false — a call its webhook already landed is left as it is
    await landCall(deps, {
      organizationId: integration.organization_id,
      agent: integration.agent,
      provider: due.platform,
      integrationId: integration.id,
      call,
      merge: false,
    });
    landed++;
  }
  // a listing cut short, or a poll cancelled while landing, starts from the same place next time
  const settled = listing.complete && !signal.aborted;
  const next = (earliest(listing.unfinishedSince, now) ?? now).getTime() - OVERLAP_MS;
  const cursor = settled ? new Date(Math.max(from.getTime(), next)) : from;
  return { ok: true, listed: listing.calls.length, landed, cursor };
};

/**
 * Polls one integration taken by `claimDuePolls` and records the outcome on it: a success clears
 * `last_poll_error` and moves its cursor; a failure (refused credentials, a platform error, no
 * answer) is stored as `last_poll_error`, and anything unexpected too, as `internal` (logged).
 * Never throws for a platform's failure; a poll cut short by shutdown records nothing.
 */
export const pollIntegration = async (
  deps: Deps,
  policy: AddressPolicy,
  due: DuePoll,
  signal: AbortSignal,
): Promise<PollOutcome | null> => {
  const now = deps.now();
  const log = deps.logger.child({ integrationId: due.id, platform: due.platform });
  const outcome = await poll(deps, policy, due, now, signal).catch((err: unknown): PollOutcome => {
    log.error({ err }, 'integration_poll:crashed');
    return { ok: false, error: { code: 'internal', message: 'The poll failed inside voice-eval.' } };
  });
  if (!outcome || (signal.aborted && !outcome.ok)) return outcome;
  if (outcome.ok) {
    await recordPoll(deps, due.id, { error: null, cursor: outcome.cursor });
    log[outcome.landed > 0 ? 'info' : 'debug'](
      { listed: outcome.listed, landed: outcome.landed },
      'integration_poll:done',
    );
  } else {
    await recordPoll(deps, due.id, { error: { ...outcome.error, at: now.toISOString() } });
    log.warn({ code: outcome.error.code, detail: outcome.error.message }, 'integration_poll:failed');
  }
  return outcome;
};
