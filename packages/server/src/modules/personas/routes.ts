import { initServer } from '@ts-rest/express';
import { contract } from '@voice-eval/contract';
import { contextOf } from '../../context.js';
import type { Deps } from '../../deps.js';
import { deleteAmbientAudio, uploadAmbientAudio } from './ambient-audio.js';
import * as service from './service.js';
import { ambientAudioUpload } from './upload.js';

const s = initServer();

/** Handlers of `contract.personas`, including the multipart ambient-audio upload. */
export const personaRoutes = (deps: Deps) =>
  s.router(contract.personas, {
    list: async ({ query, req }) => ({
      status: 200,
      body: await service.listPersonas(deps, contextOf(req), query),
    }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await service.createPersona(deps, contextOf(req), body),
    }),
    get: async ({ params, req }) => ({
      status: 200,
      body: await service.getPersona(deps, contextOf(req), params.persona_id),
    }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: await service.updatePersona(deps, contextOf(req), params.persona_id, body),
    }),
    delete: async ({ params, req }) => {
      await service.deletePersona(deps, contextOf(req), params.persona_id);
      return { status: 204, body: undefined };
    },
    uploadAmbientAudio: {
      middleware: ambientAudioUpload(deps),
      handler: async ({ params, req }) => ({
        status: 200,
        body: await uploadAmbientAudio(deps, contextOf(req), params.persona_id, req.file),
      }),
    },
    deleteAmbientAudio: async ({ params, req }) => ({
      status: 200,
      body: await deleteAmbientAudio(deps, contextOf(req), params.persona_id),
    }),
  });
