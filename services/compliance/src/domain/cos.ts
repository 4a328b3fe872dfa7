// The COS record of a case (what Siscoaf asks for: who, what, when, amounts, the rules and the
// team's reasoning) and its CSV form, one row per operation. Plain functions over the case.
import type { AmlCase, CosRecord } from '@bo/contracts';
import { formatMoney, Money } from '@bo/service-kit';
import type { PlayerIdentity } from '../players-admin.ts';

interface EvidenceEvent {
  id: string;
  type: string;
  reference?: string;
  amount?: string;
  at: string;
}

/** What a COS is made of: the case as it stands (not how the console shows it). */
export type CaseRecord = Omit<AmlCase, 'timeZone' | 'holdsPayouts' | 'assignee' | 'assignedAt' | 'cos' | 'playerName' | 'amount' | 'analysis'>;

export function cosRecordOf(c: CaseRecord, who: PlayerIdentity): CosRecord {
  // Each operation once, though several rules may name it.
  const byId = new Map<string, CosRecord['operations'][number]>();
  for (const e of c.evidence) {
    for (const x of ((e.facts as { events?: EvidenceEvent[] }).events ?? []) as EvidenceEvent[]) {
      if (x.amount !== undefined && !byId.has(x.id))
        byId.set(x.id, { eventId: x.id, type: x.type, reference: x.reference ?? x.id, amount: x.amount, at: x.at });
    }
  }
  const operations = [...byId.values()].sort((a, b) => a.at.localeCompare(b.at) || a.eventId.localeCompare(b.eventId));
  return {
    caseId: c.id,
    operatorId: c.operatorId,
    brandId: c.brandId,
    environment: c.environment,
    subject: { playerId: c.playerId, name: who.name, cpf: who.cpf, birthDate: who.birthDate },
    rules: c.rules,
    risk: c.risk,
    operations,
    totalAmount: formatMoney(operations.reduce((acc, o) => acc.plus(o.amount), new Money(0))),
    period: { from: operations[0]?.at ?? null, to: operations.at(-1)?.at ?? null },
    detectedAt: c.openedAt,
    reasoning: c.steps,
    status: c.status,
    receipt: c.receipt,
  };
}

const COLUMNS = [
  'case_id',
  'brand_id',
  'player_id',
  'player_name',
  'player_cpf',
  'rules',
  'risk',
  'operation_type',
  'operation_reference',
  'amount',
  'operation_at',
  'detected_at',
  'receipt',
  'reasoning',
] as const;

const cell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

export function cosCsvOf(r: CosRecord): string {
  const reasoning = r.reasoning.map((s) => `${s.at} ${s.status} by ${s.by}: ${s.reason}`).join(' | ');
  const rows = r.operations.map((o) =>
    [
      r.caseId,
      r.brandId,
      r.subject.playerId,
      r.subject.name,
      r.subject.cpf,
      r.rules.join(' '),
      r.risk,
      o.type,
      o.reference,
      o.amount,
      o.at,
      r.detectedAt,
      r.receipt ?? '',
      reasoning,
    ]
      .map(cell)
      .join(','),
  );
  return `${[COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
