// The baseline: a bare Fastify hello-world in a process of its own, measured back to back with the
// gateway because figures on this machine drift by about 30% between runs.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
const stop = () => void app.close().finally(() => process.exit(0));
process.on('message', (msg: { type?: string }) => {
  if (msg?.type === 'stop') stop();
});
process.on('disconnect', stop);
process.send!({ type: 'ready', url });
