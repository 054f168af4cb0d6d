import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParam, PageQuerySchema, pageOf } from '../common.js';
import { TagCreateBodySchema, TagListQuerySchema, TagSchema } from '../resources/tag.js';

const c = initContract();

export const tags = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/tags',
    query: PageQuerySchema.merge(TagListQuerySchema),
    responses: { 200: pageOf(TagSchema) },
    summary: "List the active workspace's tags",
  },
  create: {
    method: 'POST',
    path: '/api/v1/tags',
    body: TagCreateBodySchema,
    responses: { 201: TagSchema },
    summary: 'Create a tag (duplicate name: 409)',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/tags/:tag_id',
    pathParams: z.object({ tag_id: IdParam }),
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete a tag and remove it from every call import',
  },
});
