// Every validation rule of the player creation input, checked the way the gateway checks it:
// TypeBox Value.Errors against CreatePlayerSchema with the contract's formats registered.
import t, { type Test } from 'tap';
import { Value } from '@sinclair/typebox/value';
import { CreatePlayerSchema, isAdult, isValidCpf, normaliseCpf } from '../src/index.ts';

const valid = {
  externalId: 'ext-1',
  name: 'Maria Silva',
  email: 'maria@example.com.br',
  cpf: '52998224725',
  phone: '+5511987654321',
  birthDate: '1990-05-17',
};

/** JSON-pointer paths of every issue TypeBox reports for the body. */
function issuePaths(body: unknown): string[] {
  return [...new Set([...Value.Errors(CreatePlayerSchema, body)].map((e) => e.path))];
}
function check(t: Test, field: keyof typeof valid, value: unknown, ok: boolean, why: string): void {
  const paths = issuePaths({ ...valid, [field]: value });
  if (ok) t.same(paths, [], `${field} ${why}: accepted`);
  else t.same(paths, [`/${field}`], `${field} ${why}: refused at /${field} only`);
}

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
function utcToday(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
/** The birth date of someone who turns 18 today (Feb 29 today: born Feb 28, already 18). */
function eighteenthBirthdayToday(today: Date): Date {
  const y = today.getUTCFullYear() - 18,
    m = today.getUTCMonth(),
    d = today.getUTCDate();
  const candidate = new Date(Date.UTC(y, m, d));
  return candidate.getUTCMonth() === m ? candidate : new Date(Date.UTC(y, m, d - 1));
}

t.test('a complete valid body has no issues; phone is optional', async (t) => {
  t.same(issuePaths(valid), []);
  const { phone: _phone, ...withoutPhone } = valid;
  t.same(issuePaths(withoutPhone), []);
});

t.test('cpf: check digits, punctuation and length', async (t) => {
  check(t, 'cpf', '52998224725', true, 'known valid, digits');
  check(t, 'cpf', '529.982.247-25', true, 'known valid, punctuated');
  check(t, 'cpf', '11144477735', true, 'another known valid');
  check(t, 'cpf', '111.444.777-35', true, 'another known valid, punctuated');
  check(t, 'cpf', '52998224726', false, 'last check digit changed');
  check(t, 'cpf', '52998224715', false, 'first check digit changed');
  check(t, 'cpf', '529.982.247-26', false, 'punctuated, last digit changed');
  check(t, 'cpf', '11111111111', false, 'all the same digit (passes the arithmetic)');
  check(t, 'cpf', '00000000000', false, 'all zeros');
  check(t, 'cpf', '5299822472', false, '10 digits');
  check(t, 'cpf', '529982247250', false, '12 digits');
  check(t, 'cpf', '', false, 'empty');
  check(t, 'cpf', '529.982.24725', false, 'punctuation incomplete');
  check(t, 'cpf', '529-982-247.25', false, 'punctuation in the wrong places');
  check(t, 'cpf', '529 982 247 25', false, 'spaces');
  check(t, 'cpf', '5299822472a', false, 'a letter');
  check(t, 'cpf', 52998224725, false, 'a number, not a string (no coercion)');
  t.equal(normaliseCpf('529.982.247-25'), '52998224725', 'stored as digits only');
  t.ok(isValidCpf('52998224725'));
});

t.test('name: 2 to 200 characters', async (t) => {
  check(t, 'name', 'M', false, '1 char');
  check(t, 'name', 'Mo', true, '2 chars');
  check(t, 'name', 'x'.repeat(200), true, '200 chars');
  check(t, 'name', 'x'.repeat(201), false, '201 chars');
});

t.test('externalId: 1 to 128 characters', async (t) => {
  check(t, 'externalId', '', false, '0 chars');
  check(t, 'externalId', 'a', true, '1 char');
  check(t, 'externalId', 'a'.repeat(128), true, '128 chars');
  check(t, 'externalId', 'a'.repeat(129), false, '129 chars');
});

t.test('email: format and at most 254 characters', async (t) => {
  // 64 + 1 + 189 = 254; labels stay within 63 characters.
  const email254 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'e'.repeat(57)}.com`;
  const email255 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'e'.repeat(58)}.com`;
  t.equal(email254.length, 254);
  t.equal(email255.length, 255);
  check(t, 'email', email254, true, '254 chars');
  check(t, 'email', email255, false, '255 chars');
  check(t, 'email', 'maria.silva+bets@example.com', true, 'dots and plus in the local part');
  check(t, 'email', 'MARIA@EXAMPLE.COM', true, 'upper case');
  check(t, 'email', 'maria', false, 'no @');
  check(t, 'email', 'maria@', false, 'no domain');
  check(t, 'email', '@example.com', false, 'no local part');
  check(t, 'email', 'maria@example', false, 'undotted domain');
  check(t, 'email', 'maria silva@example.com', false, 'a space');
  check(t, 'email', 'maria@@example.com', false, 'two @');
  check(t, 'email', 'maria..silva@example.com', false, 'two dots in a row');
  check(t, 'email', 'maria@-example.com', false, 'domain label starting with a hyphen');
  check(t, 'email', '', false, 'empty');
});

t.test('phone: optional +, then 10 to 15 digits', async (t) => {
  check(t, 'phone', '+5511987654321', true, 'E.164 with +');
  check(t, 'phone', '11987654321', true, 'digits only');
  check(t, 'phone', '1198765432', true, '10 digits');
  check(t, 'phone', '119876543210123', true, '15 digits');
  check(t, 'phone', '+119876543210123', true, '+ and 15 digits');
  check(t, 'phone', '119876543', false, '9 digits');
  check(t, 'phone', '1198765432101234', false, '16 digits');
  check(t, 'phone', '+1198765432101234', false, '+ and 16 digits');
  check(t, 'phone', '1198765432a', false, 'a letter');
  check(t, 'phone', 'phone-number', false, 'letters');
  check(t, 'phone', '(11) 98765-4321', false, 'punctuation');
  check(t, 'phone', '++5511987654321', false, 'two +');
  check(t, 'phone', null, false, 'null (optional means absent, not null)');
});

t.test('birthDate: YYYY-MM-DD, a real date, at least 18 years old (UTC)', async (t) => {
  check(t, 'birthDate', '2000-02-29', true, 'a real leap day');
  check(t, 'birthDate', '2001-02-29', false, 'no Feb 29 in 2001');
  check(t, 'birthDate', '1990-04-31', false, 'April has 30 days');
  check(t, 'birthDate', '1990-13-01', false, 'month 13');
  check(t, 'birthDate', '1990-00-10', false, 'month 0');
  check(t, 'birthDate', '1990-5-17', false, 'unpadded month');
  check(t, 'birthDate', '17/05/1990', false, 'DD/MM/YYYY');
  check(t, 'birthDate', '1990-05-17T00:00:00Z', false, 'a timestamp');
  check(t, 'birthDate', '', false, 'empty');
  const today = utcToday();
  const exactly18 = eighteenthBirthdayToday(today);
  const oneDayShort = new Date(exactly18.getTime() + 86_400_000);
  check(t, 'birthDate', isoDate(exactly18), true, `18th birthday today (${isoDate(exactly18)})`);
  check(t, 'birthDate', isoDate(oneDayShort), false, `18th birthday tomorrow (${isoDate(oneDayShort)})`);
  check(t, 'birthDate', isoDate(today), false, 'born today');
  check(t, 'birthDate', '2999-01-01', false, 'in the future');
  // The rule itself, away from today's date.
  t.ok(isAdult('2008-11-21', new Date('2026-11-21T00:00:00.000Z')), 'birthday today');
  t.notOk(isAdult('2008-11-22', new Date('2026-11-21T23:59:59.999Z')), 'one day short');
  t.notOk(isAdult('2008-02-29', new Date('2026-02-28T12:00:00.000Z')), 'leap-day birth: not yet on Feb 28');
  t.ok(isAdult('2008-02-29', new Date('2026-03-01T00:00:00.000Z')), 'leap-day birth: 18 on Mar 1');
});

t.test('missing required fields are each reported', async (t) => {
  t.same(issuePaths({}).sort(), ['/birthDate', '/cpf', '/email', '/externalId', '/name']);
});

t.test('a body with several bad fields reports every one of them', async (t) => {
  const body = { externalId: '', name: 'M', email: 'not-an-email', cpf: '11111111111', phone: '123', birthDate: '2001-02-29' };
  t.same(issuePaths(body).sort(), ['/birthDate', '/cpf', '/email', '/externalId', '/name', '/phone']);
  const errors = [...Value.Errors(CreatePlayerSchema, { ...valid, cpf: '52998224726', birthDate: '2001-02-29' })];
  t.same([...new Set(errors.map((e) => e.path))].sort(), ['/birthDate', '/cpf']);
  for (const e of errors) t.ok(e.message.length > 0, `a message for ${e.path}`);
});

t.test('unknown fields are ignored', async (t) => {
  t.same(issuePaths({ ...valid, favouriteTeam: 'Corinthians' }), []);
});
