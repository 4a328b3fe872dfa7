// The simulated SPA impediment registry: no network, and no Postgres statement per question (it
// stands in for a registry that answers at once, and br-spa asks it at every registration). Its
// impeded CPFs are rows of players.simulated_impediments per operator: the durable truth, shared
// by every replica (the sandbox routes and our team put them there through `add` and `remove`).
// Each process answers from a mirror of an operator's rows, read on the operator's first question.
// A change made through this process is in its mirror before `add`/`remove` return (whoever adds
// a CPF and then registers on the same replica is refused), then broadcast on core NATS
// (`<prefix>.players.simulated-impediments.changed`): the other replicas reload that operator
// from the table. Core NATS is at most once: a broadcast is lost only around a broken connection,
// so every mirror is dropped when the connection drops or reconnects, and a mirror lives at most
// a minute (a lost broadcast is healed by then, as in contracts' players-client.ts).
// It can be told to be slow or down (settings at start, `control` at run time: the tests).
// `npm start`, the sandbox brands and the tests use it.
import { randomUUID } from 'node:crypto';
import { simulatedImpedimentsChangedSubject, type ImpedimentReason } from '@bo/contracts';
import type { ServiceDeps, SqlRunner } from '@bo/service-kit';
import { putSimulatedImpediment, removeSimulatedImpediment, simulatedImpediments } from '../store/simulated-impediments.ts';
import { allAnswered, type ImpedimentAnswer, type ImpedimentRegistry, type RegistryCaller } from './registry.ts';

export interface SimulatorMode {
  /** Answer every question `unavailable`. */
  down: boolean;
  /** Wait this long before answering (a slow registry). */
  latencyMs: number;
}

export interface ImpedimentSimulator extends ImpedimentRegistry {
  control(mode: Partial<SimulatorMode>): void;
  /** How many questions it was asked (one per CPF, batches included). */
  readonly asked: number;
  /** Puts a CPF on the simulated registry of an operator (replacing its reason). */
  add(operatorId: string, cpf: string, reason: ImpedimentReason, at: Date): Promise<void>;
  /** Takes a CPF off; whether it was there. */
  remove(operatorId: string, cpf: string): Promise<boolean>;
  stop(): void;
}

export interface SimulatorDeps extends Pick<ServiceDeps, 'nc' | 'prefix'> {
  sql: SqlRunner;
}

/** The broadcast: which operator's list changed, and which simulator changed it (it skips its own). */
interface SimulatedImpedimentsChanged {
  operatorId: string;
  origin: string;
}

type Impeded = Map<string, ImpedimentReason>;

export function impedimentSimulator(deps: SimulatorDeps, initial: Partial<SimulatorMode> = {}, opts: { ttlMs?: number } = {}): ImpedimentSimulator {
  const mode: SimulatorMode = { down: false, latencyMs: 0, ...initial };
  const ttlMs = opts.ttlMs ?? 60_000;
  const subject = simulatedImpedimentsChangedSubject(deps.prefix);
  const origin = randomUUID();
  let asked = 0;
  const mirrors = new Map<string, { impeded: Impeded; expiresAt: number }>();
  const loading = new Map<string, { generation: number; impeded: Promise<Impeded> }>();
  // Bumped by every change and connection drop: a read that began before one is not stored after it
  // (it still answers the question that asked, which came before the change).
  let generation = 0;

  // One read per operator at a time: questions that find no mirror wait for the same read.
  const load = (operatorId: string): Promise<Impeded> => {
    const pending = loading.get(operatorId);
    if (pending?.generation === generation) return pending.impeded;
    const started = generation;
    const entry = { generation: started } as { generation: number; impeded: Promise<Impeded> };
    entry.impeded = (async () => {
      try {
        const rows = await simulatedImpediments(deps.sql, operatorId);
        const impeded: Impeded = new Map(rows.map((r) => [r.cpf, r.reason]));
        if (started === generation) mirrors.set(operatorId, { impeded, expiresAt: Date.now() + ttlMs });
        return impeded;
      } finally {
        if (loading.get(operatorId) === entry) loading.delete(operatorId);
      }
    })();
    loading.set(operatorId, entry);
    return entry.impeded;
  };

  // Another replica changed an operator's list (it committed before it broadcast): the mirror is
  // dropped at once and read again, and a question meanwhile waits for that read instead of answering
  // from the old mirror, so a request that follows the change's reply and lands here after its
  // broadcast is answered with the change. A failed read leaves no mirror: the next question reads.
  const changedElsewhere = (operatorId: string) => {
    generation++;
    if (mirrors.delete(operatorId)) load(operatorId).catch(() => undefined);
  };
  const dropAll = () => {
    generation++;
    mirrors.clear();
  };

  const sub = deps.nc.subscribe(subject, {
    callback: (err, msg) => {
      if (err) return;
      try {
        const change = msg.json<SimulatedImpedimentsChanged>();
        if (change.origin === origin) return; // in this mirror before it was sent
        if (typeof change.operatorId !== 'string') throw new Error('no operator');
        changedElsewhere(change.operatorId);
      } catch {
        dropAll();
      }
    },
  });
  void (async () => {
    for await (const s of deps.nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnect') dropAll();
    }
  })().catch(() => undefined);

  // A change this process committed: in its own mirror before `add`/`remove` return (a read that
  // began before the commit is not stored over it), then broadcast to the other replicas.
  const applied = (operatorId: string, edit: (impeded: Impeded) => void) => {
    generation++;
    const mirror = mirrors.get(operatorId);
    if (mirror) edit(mirror.impeded);
    deps.nc.publish(subject, JSON.stringify({ operatorId, origin } satisfies SimulatedImpedimentsChanged));
  };

  const answer = async (cpfs: string[], caller: RegistryCaller): Promise<Map<string, ImpedimentAnswer>> => {
    asked += cpfs.length;
    if (mode.latencyMs > 0) await new Promise((r) => setTimeout(r, mode.latencyMs));
    if (mode.down) return allAnswered(cpfs, { result: 'unavailable', why: 'simulator down' });
    const mirror = mirrors.get(caller.operatorId);
    const impeded = mirror && mirror.expiresAt > Date.now() ? mirror.impeded : await load(caller.operatorId);
    return new Map(
      cpfs.map((cpf): [string, ImpedimentAnswer] => {
        const reason = impeded.get(cpf);
        return [cpf, reason ? { result: 'impeded', reasons: [reason] } : { result: 'not_impeded' }];
      }),
    );
  };
  return {
    async check(cpf, caller) {
      return (await answer([cpf], caller)).get(cpf)!;
    },
    checkBatch: answer,
    control(next) {
      Object.assign(mode, next);
    },
    get asked() {
      return asked;
    },
    async add(operatorId, cpf, reason, at) {
      await putSimulatedImpediment(deps.sql, operatorId, cpf, reason, at);
      applied(operatorId, (impeded) => impeded.set(cpf, reason));
    },
    async remove(operatorId, cpf) {
      const removed = await removeSimulatedImpediment(deps.sql, operatorId, cpf);
      applied(operatorId, (impeded) => impeded.delete(cpf));
      return removed;
    },
    stop() {
      sub.unsubscribe();
    },
  };
}
