import type { IngestPlatform } from '@voice-eval/contract';
import { elevenlabs } from './elevenlabs.js';
import type { CallList, Platform } from './incoming.js';
import { retell, retellCalls } from './retell.js';
import { twilio, twilioRecordings } from './twilio.js';
import { vapi, vapiCalls } from './vapi.js';

/** Each pushing platform's verifier and parser. */
export const PLATFORMS: Record<IngestPlatform, Platform> = { vapi, retell, elevenlabs, twilio };

/**
 * How reconciliation lists each polled platform's recent calls. ElevenLabs is not polled: its
 * integration holds the webhook's signing secret, which does not open ElevenLabs' API.
 */
export const CALL_LISTS: Partial<Record<IngestPlatform, CallList>> = {
  vapi: vapiCalls,
  retell: retellCalls,
  twilio: twilioRecordings,
};

export type { CallList, Delivery, IncomingCall, IngestSecrets, RecordingSource } from './incoming.js';
