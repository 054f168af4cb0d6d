import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import * as service from './service.js';

const s = initServer();

/** Handlers of `contract.voiceBundles`. */
export const voiceBundleRoutes = (deps: Deps) =>
  s.router(contract.voiceBundles, {
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createVoiceBundle(deps, contextOf(req), body),
    }),
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listVoiceBundles(deps, contextOf(req), query),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getVoiceBundle(deps, contextOf(req), params.voice_bundle_id),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updateVoiceBundle(deps, contextOf(req), params.voice_bundle_id, body),
    }),
    delete: async ({ params, req }) => {
      await service.deleteVoiceBundle(deps, contextOf(req), params.voice_bundle_id);
      return { status: 204, body: undefined };
    },
  });
