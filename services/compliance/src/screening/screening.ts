// Screening of players against the PEP and sanctions lists: when the watch first sees a player of
// a br-spa operator (their first KYC event, right after registration: no event marks the
// registration itself), and every watched player again whenever a list changes. A PEP hit raises
// the player's risk to high and opens (or joins) a case; a sanctions hit freezes the player at once
// (status `bloqueado` through the players service's status change, which every cache of the
// player's state drops before it answers: deposits, rounds and withdrawals are then refused with
// PLAYER_NOT_ACTIVE) and opens a case. The freeze is made before the screening is recorded, so a
// crash in between repeats both (the status change is idempotent) rather than losing the freeze.
import type { Environment, ScreeningList } from '@bo/contracts';
import type { Sql } from '@bo/service-kit';
import { SCREENING_ACTOR, type PlayersAdmin } from '../players-admin.ts';
import type { RuleHit } from '../domain/rules.ts';
import { isScreened, recordScreening, screenedPlayersAfter } from '../store/screenings.ts';
import { openOrJoinCase, type PlayerRef } from '../store/watch.ts';
import type { ScreeningHit, ScreeningPort, ScreeningSubject } from './port.ts';

export interface Screening {
  /** Screens a player the first time they are seen; false when they were screened before. */
  screenNewPlayer(p: PlayerRef): Promise<boolean>;
  /**
   * Screens every known player again (a list changed): the hits, with their cases. `only`: the
   * sandbox players of one operator with one CPF (an operator's sandbox entry changed).
   */
  rescreenAll(
    changeId: string,
    only?: { operatorId: string; cpf: string },
  ): Promise<{ screened: number; hits: Array<{ playerId: string; list: ScreeningList; caseId: string }> }>;
}

export interface ScreeningOptions {
  sql: Sql;
  /** The production brands' lists (the provider, or the simulator until one is contracted). */
  port: ScreeningPort;
  /** The sandbox brands' lists: always the simulator, which the sandbox routes control. */
  sandboxPort: ScreeningPort;
  players: PlayersAdmin;
}

function hitOf(h: ScreeningHit): RuleHit {
  return h.list === 'pep'
    ? { rule: 'pep', summary: `politically exposed person: ${h.detail}`, facts: { list: 'pep', detail: h.detail, reference: h.reference } }
    : { rule: 'sanctions', summary: `on a sanctions list: ${h.detail}`, facts: { list: 'sanctions', detail: h.detail, reference: h.reference } };
}

export function createScreening(o: ScreeningOptions): Screening {
  const portFor = (p: { environment: Environment }) => (p.environment === 'sandbox' ? o.sandboxPort : o.port);
  /** Applies a screening's answer: freeze first, then the record and the case in one transaction. */
  async function apply(p: PlayerRef, subject: ScreeningSubject, hits: ScreeningHit[], evidenceId: string, firstTime: boolean, before: ScreeningList[] = []) {
    if (hits.some((h) => h.list === 'sanctions')) await o.players.freeze(p.playerId);
    return o.sql.transaction(
      async (tx) => {
        const recorded = await recordScreening(tx, p, subject, [...new Set([...before, ...hits.map((h) => h.list)])], firstTime);
        if (!recorded) return undefined;
        const cases: Array<{ list: ScreeningList; caseId: string }> = [];
        for (const h of hits) {
          const { caseId } = await openOrJoinCase(tx, p, hitOf(h), evidenceId, new Date(), SCREENING_ACTOR);
          cases.push({ list: h.list, caseId });
        }
        return cases;
      },
      { idempotent: true },
    );
  }

  return {
    async screenNewPlayer(p) {
      if (await isScreened(o.sql, p.playerId)) return false;
      const subject = await o.players.identityOf(p.playerId);
      const hits = await portFor(p).screen(subject, p);
      return (await apply(p, subject, hits, `screening:registration:${p.playerId}`, true)) !== undefined;
    },
    async rescreenAll(changeId, only) {
      const out: Array<{ playerId: string; list: ScreeningList; caseId: string }> = [];
      let screened = 0;
      let after = '';
      for (;;) {
        const batch = await screenedPlayersAfter(o.sql, after, only);
        if (batch.length === 0) break;
        for (const r of batch) {
          const subject = { cpf: r.cpf, name: r.name, birthDate: r.birth_date };
          // Only a list the player was not on before acts: a freeze or case our team has since
          // lifted or dismissed is not made again by every later change of the lists.
          const p = { operatorId: r.operator_id, brandId: r.brand_id, environment: r.environment, playerId: r.player_id };
          const hits = (await portFor(p).screen(subject, p)).filter((h) => !r.last_hits.includes(h.list));
          const cases = (await apply(p, subject, hits, `screening:list-change:${changeId}`, false, r.last_hits)) ?? [];
          for (const c of cases) out.push({ playerId: r.player_id, ...c });
          screened++;
        }
        after = batch.at(-1)!.player_id;
      }
      return { screened, hits: out };
    },
  };
}
