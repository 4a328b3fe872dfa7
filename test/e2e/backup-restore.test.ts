// The restore drill of `npm run drill` (issue #67, docs/disaster-recovery.md) with small traffic:
// pgBackRest's encrypted repository, a full backup, a streaming standby promoted under load, a
// point-in-time restore to a named restore point into a new cluster, and JetStream's store lost.
// Asserts the invariants only (never the timings): the ledger verifies on every cluster the system
// ran on; every money movement acknowledged before T is in the restored database exactly once and
// none after T; the after-T report lists every payout paid and every webhook delivered after T;
// no event id is ever delivered with two meanings, and nothing the old system published after T (one
// event left untaken in JetStream on purpose) reaches anyone from the restored system; after JetStream's
// loss every event still owed is delivered, none twice, and no audit row is written twice.
import t from 'tap';
import { runDrill } from './support/drill.ts';

t.test('a point-in-time restore loses nothing acknowledged before T and reports everything after it', async (t) => {
  const r = await runDrill({ players: 1, turns: 2, providers: true, depositsBeforeLoss: 2, archiveTimeoutSeconds: 5, log: () => undefined });
  t.same(r.problems, [], 'no check of the drill broke');
  t.same(
    r.ledger,
    { standby: true, restored: true, afterJetStreamLoss: true },
    'the ledger verifies on the promoted standby, restored to T, and after JetStream was lost',
  );
  t.same(r.presence, { missingBeforeT: [], doubled: [], afterTPresent: [] }, 'restored to T: every movement acknowledged before T once, none after T');
  t.ok(r.counts.beforeT > 0 && r.counts.afterT > 0, 'money moved on both sides of T');
  t.same(
    r.afterT.payoutsPaid.map((p) => p.restoredStatus).sort(),
    ['approved', 'none (requested after T)'],
    'the after-T report lists both payouts paid after T: one approved before T (restored as approved), one requested after it',
  );
  t.ok(
    r.afterT.webhooks.some((w) => w.type === 'withdrawal.status_changed') && r.afterT.webhooks.some((w) => w.type === 'deposit.confirmed'),
    "the after-T report lists the deposits' and the payout's webhooks delivered after T",
  );
  t.ok(r.afterT.providerAnswers.length > 0, "the after-T report lists the provider's and Hub88's answers given after T");
  t.same(r.events.reusedIds, [], 'no event id delivered with two meanings');
  t.ok(r.events.leftInJetStream > 0, 'an after-T event was left in JetStream, untaken, when the old system stopped');
  t.same(r.events.oldHistorySent, [], 'after JetStream forgot, nothing the old system made after T reached anyone from the restored system');
  t.equal(r.jetStream.deliveredAfter, r.jetStream.owedWhileLost, 'after JetStream was lost, every event still owed was delivered');
  t.same(r.jetStream.deliveredTwice, [], 'and none delivered twice');
  t.equal(r.jetStream.auditRowsAfter, r.jetStream.auditRowsBefore, 'no audit row written twice by the events published again');
  t.ok(r.dataSize.databaseBytes > 0 && r.dataSize.repoBytes > 0, 'the data size and the backup are measured');
});
