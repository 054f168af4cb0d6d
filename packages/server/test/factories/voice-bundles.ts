import type { RequestBody, VoiceBundle } from '@voice-eval/sdk';
import type { Harness, Tenant } from '../harness.js';

/** A name no other test uses. */
export const uniqueName = (base = 'Bundle') => `${base} ${Math.random().toString(36).slice(2, 8)}`;

/** Every field a cascaded (`stt_llm_tts`) bundle needs, and two optional ones. */
export const CASCADED = {
  bundle_type: 'stt_llm_tts',
  stt_provider: 'openai',
  stt_model: 'whisper-1',
  llm_provider: 'openai',
  llm_model: 'gpt-4o-mini',
  llm_temperature: 0.3,
  llm_max_tokens: 512,
  tts_provider: 'elevenlabs',
  tts_model: 'eleven_turbo_v2',
  tts_voice: 'Rachel',
} as const satisfies Partial<RequestBody<'voiceBundles', 'create'>>;

/** Creates a cascaded bundle of `tenant` through the SDK as its OWNER, with `overrides` applied. */
export const makeBundle = async (
  _h: Harness,
  tenant: Tenant,
  overrides: Partial<RequestBody<'voiceBundles', 'create'>> = {},
): Promise<VoiceBundle> => {
  const client = await tenant.client('OWNER');
  return client.voiceBundles.create({ name: uniqueName(), ...CASCADED, ...overrides });
};

/** An AI provider credential of the tenant (through the SDK as its OWNER); returns its id. */
export const makeCredential = async (_h: Harness, tenant: Tenant): Promise<string> => {
  const client = await tenant.client('OWNER');
  const credential = await client.aiProviders.create({
    provider: 'openai',
    name: uniqueName('key'),
    api_key: 'sk-test-0123456789',
  });
  return credential.id;
};

/** Gives a new agent of `tenant` the bundle, through the SDK: the bundle is then in use. Returns the agent's id. */
export const useBundle = async (_h: Harness, tenant: Tenant, bundleId: string): Promise<string> => {
  const client = await tenant.client('OWNER');
  const agent = await client.agents.create({
    name: uniqueName('Agent'),
    call_type: 'inbound',
    call_medium: 'phone',
    voice_bundle_id: bundleId,
  });
  return agent.id;
};
