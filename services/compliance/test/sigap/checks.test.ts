// The simulator's two phases over files of our assumed layout (no database): a good file passes;
// each kind of fault is named with its code, field and record, structure before quality; and the
// HTTP adapter's reading of SIGAP's answers (wire.ts) never takes an unreadable one for a receipt.
import t from 'tap';
import { createHash } from 'node:crypto';
import { checkSigapFile } from '../../src/sigap/checks.ts';
import { sigapStatusOfImpediment } from '@bo/contracts';
import { SIGAP_LAYOUT, statusCodeOf } from '../../src/sigap/layout.ts';
import { sigapSimulator } from '../../src/sigap/simulator.ts';
import { readAnswer } from '../../src/sigap/wire.ts';

const header = (fileType: string, records: unknown[]) => ({
  layout: SIGAP_LAYOUT,
  fileType,
  operatorId: 'op_1',
  operatorCnpj: '11222333000181',
  brandId: 'brd_1',
  referenceDate: '2026-03-01',
  timeZone: 'America/Sao_Paulo',
  from: '2026-03-01T03:00:00.000Z',
  to: '2026-03-02T03:00:00.000Z',
  version: 1,
  part: 1,
  parts: 1,
  recordCount: records.length,
  generatedAt: '2026-03-02T03:05:00.000Z',
  records,
});
const bettor = (over: Record<string, unknown> = {}) => ({
  playerId: 'plr_1',
  cpf: '52998224725',
  name: 'Ana',
  birthDate: '1990-01-15',
  registeredAt: '2026-03-01T12:00:00.000Z',
  statusCode: 1,
  status: 'ativo',
  kycStatus: 'aprovado',
  registeredOnDay: true,
  statusChangedOnDay: false,
  ...over,
});
const wallet = (over: Record<string, unknown> = {}) => ({
  playerId: 'plr_1',
  cpf: '52998224725',
  currency: 'BRL',
  opening: '0.00',
  deposits: '100.00',
  withdrawals: '-30.00',
  bets: '-20.00',
  wins: '5.00',
  other: '0.00',
  closing: '55.00',
  movements: [
    { id: 'dep_1', type: 'deposit', amount: '100.00', method: 'pix', counterpart: '52998224725', at: '2026-03-01T12:01:00.000Z' },
    { id: 'wd_1', type: 'withdrawal', amount: '30.00', method: 'pix', counterpart: '52998224725', at: '2026-03-01T13:00:00.000Z' },
  ],
  ...over,
});
const bet = (over: Record<string, unknown> = {}) => ({
  id: 'ptx_1',
  playerId: 'plr_1',
  providerId: 'prv_1',
  providerName: 'Book',
  betId: 'slip-1',
  kind: 'bet',
  amount: '20.00',
  currency: 'BRL',
  sport: 'football',
  event: 'A x B',
  market: 'match_result',
  selection: 'A',
  odds: '2.10',
  eventStartsAt: '2026-03-05T19:00:00.000Z',
  outcome: null,
  at: '2026-03-01T14:00:00.000Z',
  ...over,
});
const file = (type: string, records: unknown[], edit?: (d: any) => void) => {
  const d = header(type, records);
  edit?.(d);
  return JSON.stringify(d);
};

t.test('good files pass both phases', async (t) => {
  t.same(checkSigapFile(file('bettors', [bettor()])), { ok: true, records: 1 });
  t.same(checkSigapFile(file('wallets', [wallet()])), { ok: true, records: 1 });
  t.same(checkSigapFile(file('sports_bets', [bet(), bet({ id: 'ptx_2', kind: 'win', amount: '42.00', outcome: 'won' })])), { ok: true, records: 2 });
  const legal = { currency: 'BRL', stakes: '100.00', prizes: '60.00', otherMovements: '5.00', ggr: '35.00', rate: '0.12', share: '4.20' };
  t.same(checkSigapFile(file('legal_destinations', [legal])), { ok: true, records: 1 });
  t.same(checkSigapFile(file('bettors', [])), { ok: true, records: 0 }, 'an empty file is a file');
});

t.test('structure: the first phase names each fault and stops there', async (t) => {
  t.match(checkSigapFile('{"layout":'), { ok: false, phase: 'structure', reasons: [{ code: 'NOT_JSON' }] });
  // The operator's CNPJ in the header (issue #60): check digits verified.
  t.match(
    checkSigapFile(JSON.stringify({ ...header('legal_destinations', []), operatorCnpj: '11222333000180' })),
    { ok: false, phase: 'structure', reasons: [{ code: 'FIELD_INVALID', field: 'operatorCnpj' }] },
    'a CNPJ with wrong check digits: a structure fault',
  );
  t.match(checkSigapFile(file('bettors', [bettor()], (d) => delete d.referenceDate)), {
    phase: 'structure',
    reasons: [{ code: 'FIELD_MISSING', field: 'referenceDate', record: null }],
  });
  t.match(checkSigapFile(file('horses', [])), { phase: 'structure', reasons: [{ code: 'FIELD_INVALID', field: 'fileType' }] });
  t.match(checkSigapFile(file('bettors', [bettor()], (d) => (d.recordCount = 2))), { reasons: [{ code: 'RECORD_COUNT_MISMATCH' }] });
  t.match(
    checkSigapFile(file('bettors', [bettor(), bettor({ playerId: 'plr_2' })]), 1),
    { reasons: [{ code: 'TOO_MANY_RECORDS' }] },
    'more records than a file holds',
  );
  const faults = checkSigapFile(file('bettors', [bettor({ birthDate: '15/01/1990', extra: 1, cpf: undefined })]));
  t.match(
    faults,
    {
      phase: 'structure',
      reasons: [
        { code: 'FIELD_MISSING', field: 'cpf', record: 0 },
        { code: 'FIELD_INVALID', field: 'birthDate', record: 0 },
        { code: 'FIELD_UNKNOWN', field: 'extra', record: 0 },
      ],
    },
    'every fault of a record',
  );
  // A wrong balance too: quality is not reached while the structure fails.
  t.match(checkSigapFile(file('wallets', [wallet({ closing: '1.00', movements: [{ id: 'x' }] })])), {
    phase: 'structure',
    reasons: [{ code: 'FIELD_MISSING', field: 'type', record: 0 }],
  });
});

t.test('quality: the data of a well-formed file', async (t) => {
  t.match(
    checkSigapFile(file('bettors', [bettor({ cpf: '52998224724' }), bettor({ statusCode: 3 })])),
    { phase: 'structure' },
    'an unknown status code is a structure fault (a value outside its list)',
  );
  t.match(checkSigapFile(file('bettors', [bettor({ cpf: '52998224724' }), bettor()])), {
    phase: 'quality',
    reasons: [
      { code: 'CPF_INVALID', field: 'cpf', record: 0 },
      { code: 'DUPLICATE_RECORD', field: 'playerId', record: 1 },
    ],
  });
  t.match(checkSigapFile(file('wallets', [wallet({ closing: '56.00' })])), { phase: 'quality', reasons: [{ code: 'BALANCE_MISMATCH', record: 0 }] });
  t.match(checkSigapFile(file('wallets', [wallet({ deposits: '90.00', closing: '45.00' })])), { reasons: [{ code: 'MOVEMENTS_MISMATCH', field: 'deposits' }] });
  t.match(
    checkSigapFile(file('sports_bets', [bet({ at: '2026-03-02T03:00:00.000Z' })])),
    { reasons: [{ code: 'OUTSIDE_REFERENCE_DAY', field: 'at' }] },
    'the day ends at `to`',
  );
  t.match(checkSigapFile(file('sports_bets', [bet({ amount: '-20.00' })])), { reasons: [{ code: 'AMOUNT_NEGATIVE' }] });
  t.match(checkSigapFile(file('sports_bets', [bet({ selection: null, odds: '1.00' })])), {
    reasons: [{ code: 'BET_WITHOUT_SELECTION', field: 'selection' }, { code: 'ODDS_INVALID' }],
  });
  const legal = { currency: 'BRL', stakes: '100.00', prizes: '60.00', otherMovements: '0.00', ggr: '35.00', rate: '0.12', share: '4.20' };
  t.match(checkSigapFile(file('legal_destinations', [legal])), { reasons: [{ code: 'GGR_MISMATCH', field: 'ggr' }] });
  t.match(checkSigapFile(file('legal_destinations', [{ ...legal, otherMovements: '5.00', share: '4.00' }])), {
    reasons: [{ code: 'SHARE_MISMATCH', field: 'share' }],
  });
});

t.test('what a provider funded (issue #59 item 1): its own kinds in the movement files, a game named but for a credit outside a round', async (t) => {
  const move = (over: Record<string, unknown> = {}) => ({
    id: 'ptx_1',
    playerId: 'plr_1',
    providerId: 'prv_1',
    providerName: 'Aggregator',
    gameCode: 'slot',
    roundId: 'r-1',
    kind: 'bet',
    amount: '10.00',
    currency: 'BRL',
    at: '2026-03-01T14:00:00.000Z',
    ...over,
  });
  const funded = [
    move({ id: 'ptx_2', kind: 'free_bet', amount: '2.00', roundId: 'r-2' }),
    move({ id: 'ptx_3', kind: 'free_bet_win', amount: '7.25', roundId: 'r-2' }),
    move({ id: 'ptx_4', kind: 'promo_credit', amount: '5.00', gameCode: null, roundId: 'tour-1' }),
    move({ id: 'ptx_5', kind: 'jackpot_win', amount: '250.00' }),
    move({ id: 'ptx_6', kind: 'jackpot_win', amount: '3.00', gameCode: null, roundId: 'mini' }),
  ];
  t.same(checkSigapFile(file('online_games', [move(), ...funded])), { ok: true, records: 6 }, 'each kind is one the layout knows');
  t.same(
    checkSigapFile(file('sports_bets', [bet({ kind: 'free_bet', selection: null, odds: null, sport: null, event: null, market: null })])),
    { ok: true, records: 1 },
    'a sportsbook free bet needs no slip of its own',
  );
  t.match(
    checkSigapFile(file('online_games', [move({ kind: 'free_bet', gameCode: null })])),
    { phase: 'quality', reasons: [{ code: 'GAME_MISSING', field: 'gameCode', record: 0 }] },
    'a free bet is played on a game',
  );
  t.match(checkSigapFile(file('online_games', [move({ kind: 'promo_credit', amount: '-5.00' })])), { reasons: [{ code: 'AMOUNT_NEGATIVE' }] });
  t.match(checkSigapFile(file('online_games', [move({ kind: 'bonus' })])), { phase: 'structure', reasons: [{ code: 'FIELD_INVALID', field: 'kind' }] });
});

t.test("a blocked bettor's status code: the files' and the players service's closures report's are one", async (t) => {
  const cases: Array<[string[], number]> = [
    [['social_program'], 10],
    [['central_self_exclusion'], 4],
    [['internal_registry'], 6],
    [['central_self_exclusion', 'social_program'], 10],
    [['internal_registry', 'central_self_exclusion'], 4],
  ];
  for (const [reasons, code] of cases) {
    for (const status of ['restrito', 'encerrado'] as const) t.equal(statusCodeOf(status, reasons.join(',')), code, `${status} after ${reasons.join('+')}`);
    t.equal(sigapStatusOfImpediment(reasons), String(code), `the report's code after ${reasons.join('+')}`);
  }
  t.equal(sigapStatusOfImpediment([]), null, 'no lists known: no code');
});

t.test('the simulator: a receipt for a good file, the same for the same file; a hash that is not the content is a structure fault', async (t) => {
  const sim = sigapSimulator({ maxRecords: 7000 });
  const content = file('bettors', [bettor()]);
  const sub = {
    fileType: 'bettors' as const,
    fileName: 'f.json',
    brandId: 'brd_1',
    operatorId: 'op_1',
    referenceDate: '2026-03-01',
    part: 1,
    parts: 1,
    content,
    checksum: createHash('sha256').update(content).digest('hex'),
  };
  const first = await sim.submit(sub);
  t.match(first, { outcome: 'accepted', receipt: /^SIM-[0-9A-F]{20}$/ });
  t.same(await sim.submit(sub), first);
  t.match(await sim.submit({ ...sub, checksum: '0'.repeat(64) }), { outcome: 'rejected', phase: 'structure', reasons: [{ code: 'CHECKSUM_MISMATCH' }] });
});

t.test("reading SIGAP's answers (the assumed wire format)", async (t) => {
  t.same(readAnswer({ protocolo: 'P1', situacao: 'ACEITO', recibo: 'R1' }), { outcome: 'accepted', receipt: 'R1', protocol: 'P1' });
  t.same(readAnswer({ protocolo: 'P1', situacao: 'EM_PROCESSAMENTO' }), { outcome: 'pending', protocol: 'P1' });
  t.same(readAnswer({ situacao: 'REJEITADO', fase: 'QUALIDADE', erros: [{ codigo: 'E1', campo: 'cpf', registro: 3, mensagem: 'm' }] }), {
    outcome: 'rejected',
    phase: 'quality',
    reasons: [{ code: 'E1', field: 'cpf', record: 3, message: 'm' }],
  });
  t.match(
    readAnswer({ situacao: 'REJEITADO' }),
    { outcome: 'rejected', phase: 'structure', reasons: [{ code: 'UNKNOWN' }] },
    'a rejection without reasons says so',
  );
  t.same(readAnswer({ situacao: 'ACEITO' }), { outcome: 'unavailable', why: 'unreadable answer' }, 'accepted without a receipt is not taken as accepted');
  t.same(readAnswer(undefined), { outcome: 'unavailable', why: 'unreadable answer' });
});
