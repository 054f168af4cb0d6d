import type { ProductionCall } from '@voice-eval/sdk';
import type { VoiceEvalServerOptions } from '../../src/server.js';
import { type OpenAiDouble, startOpenAiDouble } from '../../src/testing/openai-compatible.js';
import { encodeWav } from '../../src/voice/audio/index.js';
import { type PlatformsDouble, startPlatformsDouble } from '../doubles/platforms.js';
import { createHarness, type Harness } from '../harness.js';
import { createAiProvider } from './call-imports.js';
import { makeAgent } from './evaluators.js';

/** What the ingest tests share: the server, the platforms double, the model double and an agent. */
export type IngestWorld = { h: Harness; platforms: PlatformsDouble; openai: OpenAiDouble; agentId: string };

/**
 * Starts the platforms double and the model double, then the server with the platforms' APIs
 * pointed at the double and loopback allowed for recordings, and an agent. Calls that come
 * without turns are transcribed with the organization's default models (whisper-1 gives
 * segments). `options` override the server's configuration. The caller closes the doubles
 * (`closeIngestWorld`).
 */
export const startIngestWorld = async (options: VoiceEvalServerOptions = {}): Promise<IngestWorld> => {
  const platforms = await startPlatformsDouble();
  const openai = await startOpenAiDouble({ auth: { header: 'authorization', value: 'Bearer sk-double' } });
  const h = await createHarness({
    fetchAllowlist: ['127.0.0.1'],
    vapiApiUrl: platforms.url,
    retellApiUrl: platforms.url,
    twilioApiUrl: platforms.url,
    elevenlabsApiUrl: platforms.url,
    recordingFetchRetryBaseMs: 50,
    ...options,
  });
  const provider = await createAiProvider(h, h, openai.url);
  const owner = await h.client('OWNER');
  await owner.aiProviders.update(provider, { enabled_models: ['gpt-4o-mini', 'whisper-1'] });
  return { h, platforms, openai, agentId: (await makeAgent(h, h)).id };
};

export const closeIngestWorld = async (world: IngestWorld | undefined) => {
  await world?.platforms.close();
  await world?.openai.close();
};

/** A two-channel WAV whose channels can be told apart: left all `left`, right all `right`. */
export const stereoWav = (left: number, right: number, frames = 800) =>
  Buffer.from(
    encodeWav({
      sampleRate: 8000,
      channels: [new Int16Array(frames).fill(left), new Int16Array(frames).fill(right)],
    }),
  );

/** The production calls of an external id. */
export const callsOf = (h: Harness, externalId: string) =>
  h.db('production_calls').where({ external_call_id: externalId });

export const rowOf = (h: Harness, id: string) => h.db('call_import_rows').where({ id }).first();

/** A production call read through the SDK (READER). */
export const getCall = async (h: Harness, id: string): Promise<ProductionCall> =>
  (await h.client('READER')).productionCalls.get(id);
