import { Readable } from 'node:stream';
import type { Request, Response } from 'express';

/**
 * A JSON document sent as it is produced, for ts-rest to pipe. The first chunk is awaited
 * before anything is sent, so input errors and a failing first query are ordinary problem
 * responses (the producer does its first database work before its first chunk). A failure after
 * that cannot change the status line: it destroys the connection, so the document stays
 * unterminated (no closing bracket, no last chunk of the chunked encoding) and no client can take
 * a short document for a complete one.
 */
export const streamJsonDocument = async (
  req: Request,
  res: Response,
  chunks: AsyncGenerator<string>,
): Promise<Readable> => {
  const first = await chunks.next();
  async function* all() {
    if (!first.done) yield first.value;
    yield* chunks;
  }
  res.setHeader('content-type', 'application/json; charset=utf-8');
  return Readable.from(all()).on('error', (err) => {
    req.log?.error({ err }, 'response:stream_failed');
    res.destroy(err);
  });
};
