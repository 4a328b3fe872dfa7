// Hub88's wire rules in contracts (src/hub88.ts): money as Int64 × 100000 converted exactly (a value
// that is not whole cents is refused, never rounded), the X-Hub88-Signature both ways (Hub88's
// published vectors are checked by `npm run hub88:vectors`, against their own files), and how a
// body that does not fit a call is refused.
import t from 'tap';
import { generateKeyPairSync } from 'node:crypto';
import { checkHub88Request, hub88AmountToMoney, hub88PublicKey, moneyToHub88Amount, signHub88, verifyHub88 } from '../src/index.ts';

t.test('amounts: exact both ways, whole cents only', async (t) => {
  t.equal(hub88AmountToMoney(356000), '3.56', "Hub88's own example: $3.56 is 356000");
  t.equal(hub88AmountToMoney(0), '0.00');
  t.equal(hub88AmountToMoney(1000), '0.01', 'one cent');
  t.equal(hub88AmountToMoney(100_000_000_000), '1000000.00');
  t.equal(hub88AmountToMoney(100500), undefined, '1.005 is not a whole cent: refused, not rounded to 1.01 or 1.00');
  t.equal(hub88AmountToMoney(999), undefined, 'less than a cent');
  t.equal(hub88AmountToMoney(-1000), undefined, 'negative');
  t.equal(hub88AmountToMoney(1000.5), undefined, 'not an integer');
  t.equal(hub88AmountToMoney('1000'), undefined, 'not a number');
  t.equal(hub88AmountToMoney(2 ** 53), undefined, 'beyond what JSON numbers hold exactly');
  t.equal(moneyToHub88Amount('90.00'), 9_000_000);
  t.equal(moneyToHub88Amount('0.01'), 1000);
  t.equal(moneyToHub88Amount('-1.50'), -150_000);
  t.equal(moneyToHub88Amount('1000000.00'), 100_000_000_000);
  t.throws(() => moneyToHub88Amount('1.5'), 'only two-decimal money');
  // Every cent up to 10.00 and back, and a spread of larger ones: the round trip is the identity.
  let exact = true;
  for (let cents = 0; cents <= 1000; cents++) {
    const money = `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    if (hub88AmountToMoney(moneyToHub88Amount(money)) !== money) exact = false;
  }
  for (const money of ['123456.78', '999999.99', '0.10', '47.07']) if (hub88AmountToMoney(moneyToHub88Amount(money)) !== money) exact = false;
  t.ok(exact, 'money → Hub88 → money is exact');
});

t.test('the signature: base64 RSA-SHA256 over the exact bytes, verified with the keys in force', async (t) => {
  const hub88 = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const body = '{"user":"plr_1","request_uuid":"583c985f-fee6-4c0e-bbf5-308aad6265af"}';
  const signature = signHub88(body, hub88.privateKey);
  t.match(signature, /^[A-Za-z0-9+/]+={0,2}$/, 'base64');
  t.equal(signHub88(Buffer.from(body), hub88.privateKey), signature, 'the same bytes, the same signature (PKCS #1 v1.5 is deterministic)');
  const pub = hub88PublicKey(String(hub88.publicKey.export({ type: 'spki', format: 'pem' })));
  t.equal(verifyHub88(body, signature, [pub]), true);
  t.equal(
    verifyHub88(Buffer.from(body), signature, [hub88PublicKey(String(other.publicKey.export({ type: 'spki', format: 'pem' }))), pub]),
    true,
    'any key in force',
  );
  t.equal(verifyHub88(`${body} `, signature, [pub]), false, 'one byte more');
  t.equal(verifyHub88(body.replace('plr_1', 'plr_2'), signature, [pub]), false, 'another body');
  t.equal(verifyHub88(body, signHub88(body, other.privateKey), [pub]), false, 'another key');
  t.equal(verifyHub88(body, undefined, [pub]), false, 'no header');
  t.equal(verifyHub88(body, 'not base64!', [pub]), false, 'not base64');
  t.equal(verifyHub88(body, signature, []), false, 'no key in force');
  t.throws(() => hub88PublicKey(String(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }))), 'RSA keys only');
});

t.test("a body that does not fit its call: a missing member is syntax, a member's type is types", async (t) => {
  const bet = {
    user: 'plr_1',
    transaction_uuid: 'a',
    token: 'pst_x',
    request_uuid: 'r',
    game_code: 'g',
    currency: 'BRL',
    amount: 1000,
  };
  t.match(checkHub88Request('bet', bet), { ok: true });
  t.match(checkHub88Request('bet', { ...bet, unknown_member_hub88_adds_later: 1 }), { ok: true }, 'members Hub88 may add are accepted');
  const { token: _, ...noToken } = bet;
  t.match(checkHub88Request('bet', noToken), { ok: false, status: 'RS_ERROR_WRONG_SYNTAX', path: '/token' });
  t.match(checkHub88Request('bet', { ...bet, amount: '1000' }), { ok: false, status: 'RS_ERROR_WRONG_TYPES', path: '/amount' });
  t.match(checkHub88Request('bet', { ...bet, round: 7 }), { ok: false, status: 'RS_ERROR_WRONG_TYPES', path: '/round' });
  // A win's bet is optional in its shape (a supplier promotion's win may name none): the connector
  // refuses any other win that names no bet (RS_ERROR_WRONG_SYNTAX; services/gateway connector-hub88-promos).
  t.match(checkHub88Request('win', bet), { ok: true }, "a win's shape may name no bet");
  t.match(checkHub88Request('win', { ...bet, reference_transaction_uuid: 7 }), {
    ok: false,
    status: 'RS_ERROR_WRONG_TYPES',
    path: '/reference_transaction_uuid',
  });
  t.match(
    checkHub88Request('rollback', { user: 'u', transaction_uuid: 't', request_uuid: 'r', reference_transaction_uuid: 'b' }),
    { ok: true },
    'a rollback needs no token',
  );
  t.match(checkHub88Request('balance', { token: 'pst_x', request_uuid: 'r' }), { ok: true }, 'user may be omitted (demo play)');
  t.match(checkHub88Request('info', []), { ok: false, status: 'RS_ERROR_WRONG_SYNTAX' });
});
