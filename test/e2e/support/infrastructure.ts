// Postgres and NATS for the e2e suite: containers through testcontainers when a container runtime
// exists; otherwise (this machine, CI here) the servers named by DATABASE_URL and NATS_URL.
import { getContainerRuntimeClient, GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { serverDatabaseUrl, testNatsUrl } from '@bo/service-kit/testing';

export interface Infrastructure {
  databaseUrl: string;
  natsUrl: string;
  stop(): Promise<void>;
  source: 'containers' | 'environment';
}

let shared: Promise<Infrastructure> | undefined;

async function start(): Promise<Infrastructure> {
  const hasRuntime = await getContainerRuntimeClient().then(
    () => true,
    () => false,
  );
  if (!hasRuntime) {
    return { databaseUrl: serverDatabaseUrl(), natsUrl: testNatsUrl(), source: 'environment', stop: async () => undefined };
  }
  const started: StartedTestContainer[] = [];
  const pg = await new GenericContainer('postgres:16-alpine')
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  started.push(pg);
  const nats = await new GenericContainer('nats:2.10-alpine')
    .withCommand(['-js'])
    .withExposedPorts(4222)
    .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
    .start();
  started.push(nats);
  return {
    databaseUrl: `postgres://postgres@${pg.getHost()}:${pg.getMappedPort(5432)}/postgres`,
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    source: 'containers',
    stop: async () => {
      for (const c of started) await c.stop();
    },
  };
}

/** One set per test process; each test still makes its own database and NATS prefix. */
export function infrastructure(): Promise<Infrastructure> {
  shared ??= start().then((infra) => {
    // The service-kit test helpers read these.
    process.env.DATABASE_URL = infra.databaseUrl;
    process.env.NATS_URL = infra.natsUrl;
    return infra;
  });
  return shared;
}
