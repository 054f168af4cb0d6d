import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EmptyBodySchema, IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  AgentCreateBodySchema,
  AgentListQuerySchema,
  AgentSchema,
  AgentUpdateBodySchema,
} from '../resources/agent.js';
import { AgentTestResultSchema } from '../resources/agent-connection.js';

const c = initContract();
const agentId = z.object({ agent_id: IdParam });

export const agents = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/agents',
    query: PageQuerySchema.merge(AgentListQuerySchema),
    responses: { 200: pageOf(AgentSchema) },
    summary: 'List agents of the workspace',
  },
  create: {
    method: 'POST',
    path: '/api/v1/agents',
    body: AgentCreateBodySchema,
    responses: { 201: AgentSchema },
    summary: 'Create an agent',
  },
  get: {
    method: 'GET',
    path: '/api/v1/agents/:agent_id',
    pathParams: agentId,
    responses: { 200: AgentSchema },
    summary: 'Get an agent',
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/agents/:agent_id',
    pathParams: agentId,
    body: AgentUpdateBodySchema,
    responses: { 200: AgentSchema },
    summary: 'Update an agent',
  },
  test: {
    method: 'POST',
    path: '/api/v1/agents/:agent_id/test',
    pathParams: agentId,
    body: EmptyBodySchema,
    responses: { 200: AgentTestResultSchema },
    summary: 'Test the agent connection with one greeting round trip (a failure is reported in the body)',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/agents/:agent_id',
    pathParams: agentId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete an agent (409 in_use while evaluators or suites use it)',
  },
});
