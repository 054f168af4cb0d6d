import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  type PersonaAmbientAudioBody,
  PersonaCreateBodySchema,
  PersonaListQuerySchema,
  PersonaSchema,
  PersonaUpdateBodySchema,
} from '../resources/persona.js';

const c = initContract();
const personaId = z.object({ persona_id: IdParam });

export const personas = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/personas',
    query: PageQuerySchema.merge(PersonaListQuerySchema),
    responses: { 200: pageOf(PersonaSchema) },
    summary: "List built-in personas and the workspace's custom ones",
  },
  create: {
    method: 'POST',
    path: '/api/v1/personas',
    body: PersonaCreateBodySchema,
    responses: { 201: PersonaSchema },
    summary: 'Create a custom persona',
  },
  get: {
    method: 'GET',
    path: '/api/v1/personas/:persona_id',
    pathParams: personaId,
    responses: { 200: PersonaSchema },
    summary: 'Get a persona',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/personas/:persona_id',
    pathParams: personaId,
    body: PersonaUpdateBodySchema,
    responses: { 200: PersonaSchema },
    summary: 'Update a custom persona',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/personas/:persona_id',
    pathParams: personaId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete a custom persona and its ambient audio (409 in_use while evaluators use it)',
  },
  uploadAmbientAudio: {
    method: 'POST',
    path: '/api/v1/personas/:persona_id/ambient-audio',
    pathParams: personaId,
    contentType: 'multipart/form-data',
    body: c.type<PersonaAmbientAudioBody>(),
    responses: { 200: PersonaSchema },
    metadata: { multipart: { fileField: 'file' } } as const,
    summary: "Upload or replace a persona's custom ambient audio (enterprise feature)",
  },
  deleteAmbientAudio: {
    method: 'DELETE',
    path: '/api/v1/personas/:persona_id/ambient-audio',
    pathParams: personaId,
    body: c.noBody(),
    responses: { 200: PersonaSchema },
    summary: "Delete a persona's custom ambient audio (enterprise feature)",
  },
});
