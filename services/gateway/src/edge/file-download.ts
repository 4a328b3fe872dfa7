// An operation whose answer is a file (`download: true` in the contract: the daily regulator
// files, an access request's personal-data file). The owning service answers it chunk by chunk (`FileChunk`: a piece of the file and the
// cursor of the next), each within the NATS payload limit; the gateway streams the chunks as one
// HTTP response with the file's content type and name. A refusal of the first chunk is the usual
// error envelope; a chunk that fails later cuts the response short (the caller sees a truncated
// download and an aborted connection, never a file that looks whole).
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, requestOperation, type FileChunk, type Operation, type RequestContext } from '@bo/contracts';
import type { ForwardDeps } from './forward-deps.ts';

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'download';

/**
 * `beforeStream` runs once the first chunk is in hand and before a byte is sent (the admin API records
 * its read there: a refused download was never read).
 */
export function fileDownloader(
  op: Operation,
  deps: ForwardDeps,
  contextOf: (req: FastifyRequest) => RequestContext,
  beforeStream?: (req: FastifyRequest) => Promise<void>,
) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const ask = async (cursor: string | undefined): Promise<FileChunk> => {
      const query = { ...((req.query as Record<string, unknown> | undefined) ?? {}) };
      delete query.cursor;
      const result = await requestOperation(
        deps.nc,
        op.subject!,
        { ctx: contextOf(req), params: req.params ?? {}, query: cursor ? { ...query, cursor } : query, body: {} },
        { prefix: deps.natsPrefix, timeoutMs: Math.max(op.timeoutMs ?? 0, deps.rpcTimeoutMs) },
      );
      if (!result.ok) throw AppError.fromBody(result.error);
      return result.body as FileChunk;
    };
    const first = await ask(undefined);
    req.answeredByService = true;
    await beforeStream?.(req);
    async function* rest(): AsyncGenerator<string> {
      yield first.chunk;
      for (let next = first.nextCursor; next; ) {
        const chunk = await ask(next);
        yield chunk.chunk;
        next = chunk.nextCursor;
      }
    }
    return reply
      .code(op.status)
      .header('content-type', first.contentType)
      .header('content-disposition', `attachment; filename="${safeName(first.filename)}"`)
      .send(Readable.from(rest()));
  };
}
