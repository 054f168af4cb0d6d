import { VoiceBundleSchema } from '@voice-eval/contract';
import { expect } from 'vitest';
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
};

/** Creates a cascaded bundle of `tenant` through the API, with `overrides` applied. */
export const makeBundle = async (h: Harness, tenant: Tenant, overrides: Record<string, unknown> = {}) => {
  const reply = await h.request('POST', '/api/v1/voicebundles', {
    headers: await tenant.as('OWNER'),
    body: { name: uniqueName(), ...CASCADED, ...overrides },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return VoiceBundleSchema.parse(reply.body);
};

/** An AI provider credential row of the organization (the AI-providers module's table). */
export const makeCredential = async (h: Harness, organizationId: string): Promise<string> => {
  const [row] = await h
    .db('ai_providers')
    .insert({
      organization_id: organizationId,
      provider: 'openai',
      name: uniqueName('key'),
      created_by: 'test',
    })
    .returning('id');
  return row.id;
};

/** Gives a new agent of `tenant` the bundle, through the API: the bundle is then in use. */
export const useBundle = async (h: Harness, tenant: Tenant, bundleId: string) => {
  const reply = await h.request('POST', '/api/v1/agents', {
    headers: await tenant.as('OWNER'),
    body: {
      name: uniqueName('Agent'),
      call_type: 'inbound',
      call_medium: 'phone',
      voice_bundle_id: bundleId,
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id as string;
};
