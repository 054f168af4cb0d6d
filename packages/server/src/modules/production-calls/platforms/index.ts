import type { IngestPlatform } from '@voice-eval/contract';
import { elevenLabsConversations, elevenlabs } from './elevenlabs.js';
import type { CallList, Platform } from './incoming.js';
import { retell, retellCalls } from './retell.js';
import { twilio, twilioRecordings } from './twilio.js';
import { vapi, vapiCalls } from './vapi.js';

/** Each pushing platform's verifier and parser. */
export const PLATFORMS: Record<IngestPlatform, Platform> = { vapi, retell, elevenlabs, twilio };

/**
 * How reconciliation lists each platform's recent calls (ElevenLabs' only with the integration's
 * API key: its webhook's signing secret does not open ElevenLabs' API).
 */
export const CALL_LISTS: Record<IngestPlatform, CallList> = {
  vapi: vapiCalls,
  retell: retellCalls,
  twilio: twilioRecordings,
  elevenlabs: elevenLabsConversations,
};

export type { CallList, Delivery, IncomingCall, IngestSecrets, RecordingSource } from './incoming.js';
