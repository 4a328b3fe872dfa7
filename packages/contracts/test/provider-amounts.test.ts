// The provider API's amounts (docs/providers.md; issue #56 item 3), checked by the schemas the
// gateway, the wallet and the published document share: a bet 0.01 to 1000000.00; a win 0 to
// 9999999999999.99, a jackpot win or a promotional credit 0.01 to it, a correction signed and never
// zero within ±9999999999999.99 (issue #66 item 5: a prize pays more than a bet); anything else is a
// 422 naming `/amount`. The published document's pattern for each is the same range: every value here is
// accepted by the pattern exactly when the schema accepts it.
import t from 'tap';
import { buildProviderOpenApi, compilePart, providerOperations, type AppError, type ValidationIssue } from '../src/index.ts';

const bet = compilePart(providerOperations.providerBet.body!, 'body');
const win = compilePart(providerOperations.providerWin.body!, 'body');
const correction = compilePart(providerOperations.providerCorrection.body!, 'body');
const jackpot = compilePart(providerOperations.providerJackpotWin.body!, 'body');
const promo = compilePart(providerOperations.providerPromoCredit.body!, 'body');
const betOf = (amount: unknown) => ({ transactionId: 'b-1', token: 'pst_x', roundId: 'r-1', gameCode: 'g', amount, currency: 'BRL' });
const winOf = (amount: unknown) => ({ transactionId: 'w-1', playerId: 'plr_1', roundId: 'r-1', amount, currency: 'BRL' });
const correctionOf = (amount: unknown) => ({ transactionId: 'c-1', playerId: 'plr_1', roundId: 'r-1', amount, currency: 'BRL', reason: 'x' });
const jackpotOf = (amount: unknown) => ({ transactionId: 'j-1', playerId: 'plr_1', jackpotId: 'jp-1', amount, currency: 'BRL' });
const promoOf = (amount: unknown) => ({ transactionId: 'p-1', playerId: 'plr_1', amount, currency: 'BRL', promotionType: 'promo_win', promotionId: 'pr-1' });

function issuesOf(result: { value: unknown } | { error: AppError }): string[] {
  const issues = 'error' in result ? ((result.error.details as { issues?: ValidationIssue[] } | undefined)?.issues ?? []) : [];
  return issues.map((i) => i.path);
}

// Written wrong for every kind (as a public amount is refused), or beyond every range.
const MALFORMED = [
  '00.10',
  '01',
  '1.234',
  '1.',
  '.5',
  '',
  ' 1',
  '1e3',
  '1,00',
  '+1',
  '0x10',
  '１',
  'NaN',
  '10000000000000',
  '10000000000000.00',
  '99999999999999.99',
  '09999999999999.99',
  `1${'0'.repeat(500)}`,
];
// Beyond a bet's cap, within a prize's.
const OVER_A_STAKE = ['1000000.01', '1000001', '5000000.00', '63727092.34', '99999999.00', '9999999.99', '9999999999999.99'];
const cases = {
  bet: {
    check: (a: unknown) => bet(betOf(a)),
    accepted: ['0.01', '0.1', '1', '10.5', '999999.99', '1000000', '1000000.0', '1000000.00'],
    refused: [...MALFORMED, ...OVER_A_STAKE, '0', '0.0', '0.00', '-0', '-1.00', '-0.01'],
  },
  win: {
    check: (a: unknown) => win(winOf(a)),
    accepted: ['0', '0.0', '0.00', '0.01', '25.50', '1000000', '1000000.00', ...OVER_A_STAKE],
    refused: [...MALFORMED, '-0', '-0.00', '-1.00'],
  },
  jackpotWin: {
    check: (a: unknown) => jackpot(jackpotOf(a)),
    accepted: ['0.01', '25.50', '1000000.00', ...OVER_A_STAKE],
    refused: [...MALFORMED, '0', '0.00', '-0', '-1.00'],
  },
  promoCredit: {
    check: (a: unknown) => promo(promoOf(a)),
    accepted: ['0.01', '25.50', '1000000.00', ...OVER_A_STAKE],
    refused: [...MALFORMED, '0', '0.00', '-0', '-1.00'],
  },
  correction: {
    check: (a: unknown) => correction(correctionOf(a)),
    accepted: ['0.01', '-0.01', '15.00', '-15.00', '1000000.00', '-1000000.00', '-1000000', ...OVER_A_STAKE, '-63727092.34', '-9999999999999.99'],
    refused: [...MALFORMED, '0', '0.00', '-0', '-0.0', '-0.00', '--1', '-', '-10000000000000.00', '-01.00'],
  },
} as const;

t.test('each provider amount: its range accepted, anything else a 422 at /amount', async (t) => {
  for (const [kind, c] of Object.entries(cases)) {
    for (const v of c.accepted) t.same(issuesOf(c.check(v)), [], `${kind} ${JSON.stringify(v)}: accepted`);
    for (const v of c.refused) t.same(issuesOf(c.check(v)), ['/amount'], `${kind} ${JSON.stringify(v.slice(0, 20))}: refused, naming /amount`);
    t.same(issuesOf(c.check(10)), ['/amount'], `${kind}: a number is refused (no coercion)`);
  }
});

t.test('the published document: the same ranges as patterns a provider can check with', async (t) => {
  const doc = buildProviderOpenApi('https://api.example.com/provider/v1') as any;
  const amountOf = (schema: string) => doc.components.schemas[schema].properties.amount;
  const published = {
    bet: amountOf('ProviderBet'),
    win: amountOf('ProviderWin'),
    jackpotWin: amountOf('ProviderJackpotWin'),
    promoCredit: amountOf('ProviderPromoCredit'),
    correction: amountOf('ProviderCorrection'),
  };
  for (const [kind, c] of Object.entries(cases)) {
    const p = published[kind as keyof typeof published];
    t.notOk('format' in p, `${kind}: no format only our validator knows`);
    const pattern = new RegExp(p.pattern);
    const byPattern = (v: string) => pattern.test(v) && v.length <= p.maxLength;
    for (const v of [...c.accepted, ...c.refused]) {
      t.equal(byPattern(v), issuesOf(c.check(v)).length === 0, `${kind} ${JSON.stringify(v.slice(0, 20))}: the pattern agrees with the schema`);
    }
  }
});
