import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EmptyBodySchema, IdParam, PageQuerySchema, pageOf } from '../common.js';
import {
  ReviewItemListQuerySchema,
  ReviewItemSchema,
  ReviewNextSchema,
  ReviewQueueCreateBodySchema,
  ReviewQueueSchema,
} from '../resources/review-queue.js';

const c = initContract();
const queueId = z.object({ queue_id: IdParam });
const itemId = z.object({ queue_id: IdParam, item_id: IdParam });

export const reviewQueues = c.router({
  list: {
    method: 'GET',
    path: '/api/v1/review-queues',
    query: PageQuerySchema,
    responses: { 200: pageOf(ReviewQueueSchema) },
    summary: "List the workspace's review queues, newest first",
  },
  create: {
    method: 'POST',
    path: '/api/v1/review-queues',
    body: ReviewQueueCreateBodySchema,
    responses: { 201: ReviewQueueSchema },
    summary: 'Sample calls from an evaluation, a suite run or a call import for people to label',
  },
  get: {
    method: 'GET',
    path: '/api/v1/review-queues/:queue_id',
    pathParams: queueId,
    responses: { 200: ReviewQueueSchema },
    summary: 'Get a review queue with its progress',
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/review-queues/:queue_id',
    pathParams: queueId,
    body: c.noBody(),
    responses: { 204: c.noBody() },
    summary: 'Delete a review queue (the labels given stay)',
  },
  items: {
    method: 'GET',
    path: '/api/v1/review-queues/:queue_id/items',
    pathParams: queueId,
    query: PageQuerySchema.merge(ReviewItemListQuerySchema),
    responses: { 200: pageOf(ReviewItemSchema) },
    summary: "A queue's calls in order, with who holds or finished each",
  },
  next: {
    method: 'POST',
    path: '/api/v1/review-queues/:queue_id/next',
    pathParams: queueId,
    body: EmptyBodySchema,
    responses: { 200: ReviewNextSchema },
    summary: "Claim the next call to label (or the one you hold), for the queue's lock time",
  },
  complete: {
    method: 'POST',
    path: '/api/v1/review-queues/:queue_id/items/:item_id/complete',
    pathParams: itemId,
    body: EmptyBodySchema,
    responses: { 200: ReviewItemSchema },
    summary: 'Mark a call done once you labelled it on every metric of the queue',
  },
  release: {
    method: 'POST',
    path: '/api/v1/review-queues/:queue_id/items/:item_id/release',
    pathParams: itemId,
    body: EmptyBodySchema,
    responses: { 200: ReviewItemSchema },
    summary: 'Give back a call you hold, unlabelled, to the queue',
  },
});
