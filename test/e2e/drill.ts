// `npm run drill`: the point-in-time restore drill anyone can run on one machine (issue #67;
// docs/disaster-recovery.md). pgBackRest and PostgreSQL 15 are installed with apt-get when missing
// (as root). Prints the restore point, RPO and RTO with the data size, the ledger verification and
// the after-T report; exits 0 when every check holds, 1 otherwise.
// DRILL_PLAYERS (4), DRILL_TURNS (4), DRILL_PROVIDERS (1; 0 leaves provider play out),
// DRILL_DEPOSITS_UNDER_LOAD (20), DRILL_ARCHIVE_TIMEOUT (10 s).
import { runDrill, type DrillResult } from './support/drill.ts';

const say = (msg: string) => console.log(`[drill] ${new Date().toISOString().slice(11, 19)} ${msg}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function printDrill(r: DrillResult, print: (line: string) => void = console.log): void {
  const a = r.afterT;
  print('');
  print(`restore point: ${r.restorePoint.name} at LSN ${r.restorePoint.lsn} (${r.restorePoint.at})`);
  print(
    `data size: database ${mb(r.dataSize.databaseBytes)}; full backup ${mb(r.dataSize.backupBytes)}, ${mb(r.dataSize.repoBytes)} in the repository (lz4, aes-256-cbc)`,
  );
  print(
    `money movements acknowledged: ${r.counts.movements} (${r.counts.beforeT} before T, ${r.counts.afterT} after T until the loss); webhooks delivered: ${r.counts.webhooksDelivered}`,
  );
  print(
    `ledger verification: promoted standby ${r.ledger.standby ? 'ok' : 'FAILED'}, restored to T ${r.ledger.restored ? 'ok' : 'FAILED'}, after JetStream's loss ${r.ledger.afterJetStreamLoss ? 'ok' : 'FAILED'}`,
  );
  print(
    `restored to T: every movement acknowledged before T there exactly once: ${r.presence.missingBeforeT.length === 0 && r.presence.doubled.length === 0}; none acknowledged after T there: ${r.presence.afterTPresent.length === 0}`,
  );
  print(
    `RPO, archiving alone (archive_timeout ${r.rpo.archiveTimeoutSeconds} s): ${r.rpo.archiveOnly.movements} acknowledged money movements lost (deposits and payouts R$ ${r.rpo.archiveOnly.money})`,
  );
  print(`RPO, with the streaming standby: ${r.rpo.standby.movements} acknowledged money movements lost (R$ ${r.rpo.standby.money})`);
  print(`RTO, standby promoted: ${seconds(r.rto.standbyMs)} from the primary lost to the first accepted deposit`);
  print(
    `RTO, restore to T from the backup: ${seconds(r.rto.restoreMs)} (restore and WAL replay ${seconds(r.rto.restoreParts.restoreAndRecoveryMs)}, system start to the first accepted deposit ${seconds(r.rto.restoreParts.systemStartMs)})`,
  );
  print(
    `events: ${r.events.owedAfterRestore} held by the restored database, all delivered; ids with two meanings: ${r.events.reusedIds.length}; after-T events of the old system sent by the restored one: ${r.events.oldHistorySent.length} (JetStream forgot ${r.events.forgotten.map((f) => `${f.purged} in ${f.stream}`).join(', ')}; ${r.events.leftInJetStream} of them untaken or unacknowledged by the webhooks service)`,
  );
  const j = r.jetStream;
  print(
    `JetStream lost entirely: ${Object.values(j.republished).reduce((x, y) => x + y, 0)} outbox rows published again; ${j.deliveredAfter} of ${j.owedWhileLost} events still owed delivered; ${j.deliveredTwice.length} delivered twice; audit rows ${j.auditRowsBefore} → ${j.auditRowsAfter}`,
  );
  print('');
  print('AFTER-T REPORT: what the outside world was told after drill-T that the restored system no longer knows');
  print(`  webhooks delivered: ${a.webhooks.length}`);
  for (const w of a.webhooks) print(`    ${w.eventId}  ${w.type}  ${w.party}  ${w.amount}`);
  print(`  provider and aggregator answers given: ${a.providerAnswers.length}`);
  for (const p of a.providerAnswers) print(`    ${p.transactionId}  ${p.call}  provider ${p.provider}  ${p.amount}`);
  print(`  payouts marked paid: ${a.payoutsPaid.length}`);
  for (const p of a.payoutsPaid) print(`    ${p.withdrawalId}  ${p.party}  ${p.amount}  restored as: ${p.restoredStatus}`);
  print(`  deposits confirmed: ${a.depositsConfirmed.length}; real-money rounds played: ${a.rounds.length}`);
  for (const m of [...a.depositsConfirmed, ...a.rounds]) print(`    ${m.id}  ${m.kind}  ${m.party}  ${m.amount}`);
  print('What the restored system does with each:');
  print('  - webhooks: their event ids (UUIDv7) are in no restored table; no restored event is ever sent under one of them');
  print('    (checked above: none sent again, no id with two meanings). The operator keeps them: reconcile from this list.');
  print('  - provider answers: the wallet no longer has the transaction; the aggregator sending it again under its id has it');
  print('    applied once, as new. Reconcile with its statement (docs/providers.md) before that.');
  print('  - payouts: the money left; the restored withdrawal is in the state shown. Finance marks it paid again (four eyes)');
  print("    after checking the PSP; deposits confirmed after T are confirmed again from the PSP's record.");
}

say('restore drill: pgBackRest, PostgreSQL 15, the whole system and real traffic on this machine');
let failed = true;
try {
  const result = await runDrill({
    players: Number(process.env.DRILL_PLAYERS ?? 4),
    turns: Number(process.env.DRILL_TURNS ?? 4),
    providers: process.env.DRILL_PROVIDERS !== '0',
    depositsBeforeLoss: Number(process.env.DRILL_DEPOSITS_UNDER_LOAD ?? 20),
    archiveTimeoutSeconds: Number(process.env.DRILL_ARCHIVE_TIMEOUT ?? 10),
    log: say,
  });
  printDrill(result);
  for (const p of result.problems) say(`BROKEN: ${p}`);
  failed = result.problems.length > 0;
  say(failed ? 'the drill found problems' : 'every check holds');
} catch (err) {
  console.error('[drill]', err);
}
process.exit(failed ? 1 : 0);
