import type { IngestPlatform } from '@voice-eval/contract';
import { elevenlabs } from './elevenlabs.js';
import type { Platform } from './incoming.js';
import { retell } from './retell.js';
import { twilio } from './twilio.js';
import { vapi } from './vapi.js';

/** Each pushing platform's verifier and parser. */
export const PLATFORMS: Record<IngestPlatform, Platform> = { vapi, retell, elevenlabs, twilio };

export type { Delivery, IncomingCall, IngestSecrets, RecordingSource } from './incoming.js';
