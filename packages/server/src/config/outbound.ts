import { z } from 'zod';
import { apiUrl, csv, int } from './parsers.js';

/** What the server reaches out to: user URLs, webhook endpoints, recordings, and the voice platforms' APIs. */
export const outboundFields = {
  /**
   * Hosts (exact names) or IP addresses/CIDRs that server-side fetches of user URLs (recordings) may
   * reach although they are private, loopback or link-local; everything else of that kind is refused.
   */
  fetchAllowlist: z.union([z.array(z.string()), csv]).default([]),
  /** Deadline of one server-side fetch of a user URL, redirects included, in ms. @default 30000 */
  fetchTimeoutMs: int(30_000),
  /** Deadline of one webhook delivery attempt (connect, POST, answer), in ms. @default 15000 */
  webhookTimeoutMs: int(15_000),
  /** Delay before the second attempt of a failed webhook delivery, doubled after each failure, less up to 25% jitter, in ms. @default 60000 */
  webhookRetryBaseMs: int(60_000),
  /** Longest delay between two attempts of a webhook delivery, in ms. @default 18000000 (5 hours) */
  webhookRetryMaxDelayMs: int(5 * 3600 * 1000),
  /** Attempts of a webhook delivery before it fails (the defaults spread 13 attempts over 18 to 24 hours). @default 13 */
  webhookMaxAttempts: int(13),
  /** An endpoint whose every delivery attempt failed for this long is disabled, in ms. @default 432000000 (5 days) */
  webhookDisableAfterMs: int(5 * 24 * 3600 * 1000),
  /** Attempts at downloading a production call's recording before it fails. @default 6 */
  recordingFetchMaxAttempts: int(6),
  /** Pause after a failed recording download, doubled per failure (capped at an hour), less up to 25% jitter, in ms. @default 30000 */
  recordingFetchRetryBaseMs: int(30_000),
  /**
   * How often each active integration with an agent has its platform's recent calls listed, to
   * land the calls whose webhook never arrived (Vapi, Retell, Twilio), in ms. @default 300000 (5 minutes)
   */
  reconcileIntervalMs: int(5 * 60_000),
  /**
   * How far back a poll lists a platform's calls at most: the whole window on an integration's first
   * poll, and the limit on how long a call still under way holds the next poll's start back, in ms.
   * @default 86400000 (24 hours)
   */
  reconcileLookbackMs: int(24 * 3600_000),
  /** Vapi's API, where a Vapi call's recording is fetched with the integration's private key and its calls are listed. @default https://api.vapi.ai */
  vapiApiUrl: apiUrl('https://api.vapi.ai'),
  /** Retell's API, which testing and polling a Retell integration list calls from. @default https://api.retellai.com */
  retellApiUrl: apiUrl('https://api.retellai.com'),
  /** ElevenLabs' API: conversations listed for reconciliation and their audio, with an integration's API key. @default https://api.elevenlabs.io */
  elevenlabsApiUrl: apiUrl('https://api.elevenlabs.io'),
  /** Twilio's API: testing a Twilio integration reads the account, polling lists its recordings. @default https://api.twilio.com */
  twilioApiUrl: apiUrl('https://api.twilio.com'),
};
