import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_VERSION, type Me } from '@bo/contracts';

export async function getMe(req: FastifyRequest, reply: FastifyReply) {
  const c = req.credential!;
  const me: Me = {
    operator: { id: c.operatorId, name: c.operatorName, environment: c.environment },
    brand: { id: c.brand.id, name: c.brand.name, currency: c.brand.currency, isSandbox: c.environment === 'sandbox' },
    apiVersion: API_VERSION,
  };
  return reply.send(me);
}
