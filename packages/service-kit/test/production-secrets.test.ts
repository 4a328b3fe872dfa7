// The production rule: with NODE_ENV=production a process refuses every secret its schema reads
// that is unset, the development default, a template placeholder or too weak, in one line.
import t from 'tap';
import { Type } from '@sinclair/typebox';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BaseConfigSchema,
  loadConfig,
  natsIdentityOptions,
  natsPasswordsOf,
  productionRefusal,
  providerSecret,
  providerSecretsOf,
  secretKey,
  secretSettingsOf,
} from '../src/index.ts';

const DEV_KEY = 'dev-only-key-change-me-0000';
const Schema = Type.Composite([
  BaseConfigSchema,
  Type.Object({ SIGNING_KEY: secretKey(DEV_KEY), OTHER: Type.String({ default: 'x' }), PROVIDER_TOKEN: providerSecret() }),
]);
const strong = 'k'.repeat(32);
const goodDb = 'postgres://back_office:s3cret@db.internal:5432/backoffice';
const natsPassword = `p${'0'.repeat(40)}`;
const production = { NODE_ENV: 'production', DATABASE_URL: goodDb, SIGNING_KEY: strong, NATS_USER: 'wallet', NATS_PASSWORD: natsPassword };

t.test('a schema declares the secrets it reads, with their development defaults', async (t) => {
  t.same(secretSettingsOf(BaseConfigSchema), [{ name: 'DATABASE_URL', kind: 'url', devDefault: 'postgres://postgres@127.0.0.1:5432/backoffice' }]);
  t.same(
    secretSettingsOf(Schema).map((s) => [s.name, s.kind, s.devDefault]),
    [
      ['DATABASE_URL', 'url', 'postgres://postgres@127.0.0.1:5432/backoffice'],
      ['SIGNING_KEY', 'key', DEV_KEY],
    ],
    'composed schemas keep the declarations',
  );
  t.equal(loadConfig(Schema, {}).SIGNING_KEY, DEV_KEY, 'outside production the default still serves');
  t.same(providerSecretsOf(Schema), ['PROVIDER_TOKEN'], 'a provider credential is declared apart');
  t.equal(loadConfig(Schema, {}).PROVIDER_TOKEN, undefined, 'and has no default');
  t.throws(() => loadConfig(Schema, { SIGNING_KEY: 'short' }), /SIGNING_KEY/, 'and a key shorter than 16 is refused everywhere');
});

t.test('outside production nothing is refused', async (t) => {
  t.equal(productionRefusal(Schema, {}), undefined);
  t.equal(productionRefusal(Schema, { NODE_ENV: 'development', SIGNING_KEY: DEV_KEY }), undefined);
  t.equal(productionRefusal(Schema, { NODE_ENV: 'test' }), undefined);
});

t.test('in production', async (t) => {
  t.equal(productionRefusal(Schema, production), undefined, 'every secret set and strong: starts');
  const refusal = (env: Record<string, string | undefined>) => productionRefusal(Schema, { ...production, ...env });
  t.equal(refusal({ SIGNING_KEY: undefined }), 'SIGNING_KEY is not set; set it in the Secret');
  t.equal(refusal({ SIGNING_KEY: '' }), 'SIGNING_KEY is not set; set it in the Secret', 'empty counts as unset');
  t.equal(refusal({ SIGNING_KEY: DEV_KEY }), 'SIGNING_KEY is the development default; set it in the Secret');
  t.equal(refusal({ SIGNING_KEY: 'REPLACE-ME-signing-key-from-secret-store' }), "SIGNING_KEY is the template's placeholder; set it in the Secret");
  t.equal(refusal({ SIGNING_KEY: 'k'.repeat(31) }), 'SIGNING_KEY is too short (31 characters, at least 32 in production); set it in the Secret');
  t.equal(refusal({ DATABASE_URL: undefined }), 'DATABASE_URL is not set; set it in the Secret', 'the development database would be used');
  t.equal(refusal({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/backoffice' }), 'DATABASE_URL is the development default; set it in the Secret');
  t.equal(refusal({ DATABASE_URL: 'postgres://back_office@db.internal:5432/backoffice' }), 'DATABASE_URL has no password; set it in the Secret');
  t.equal(refusal({ DATABASE_URL: 'postgres://back_office:@db.internal/backoffice' }), 'DATABASE_URL has no password; set it in the Secret');
  t.equal(refusal({ DATABASE_URL: 'db.internal:5432' }), 'DATABASE_URL is not a URL of the form scheme://user:password@host/name; set it in the Secret');
  t.equal(
    refusal({ DATABASE_URL: 'postgres://back_office:REPLACE-ME@postgres.example.internal:5432/backoffice' }),
    "DATABASE_URL is the template's placeholder; set it in the Secret",
  );
  t.equal(refusal({ DATABASE_URL: 'postgres://postgres:long-random-password@db.internal/backoffice' }), undefined, 'any user with a password');
  t.equal(
    refusal({ DATABASE_URL: undefined, SIGNING_KEY: DEV_KEY }),
    'DATABASE_URL is not set, SIGNING_KEY is the development default; set them in the Secret',
    'every secret at fault, in one line',
  );
  t.equal(refusal({ PROVIDER_TOKEN: undefined }), undefined, 'a provider credential may be absent (its simulator answers)');
  t.equal(refusal({ PROVIDER_TOKEN: 'a-provider-token' }), undefined, 'or set');
  t.equal(
    refusal({ PROVIDER_TOKEN: 'REPLACE-ME-provider-token-from-secret-store' }),
    "PROVIDER_TOKEN is the template's placeholder; set it in the Secret",
    'never a placeholder',
  );
  // NATS takes only known identities in production (deploy/k8s nats.yaml): the password is required.
  t.same(natsPasswordsOf(BaseConfigSchema), ['NATS_PASSWORD'], "the kit's base settings declare the NATS password");
  t.equal(refusal({ NATS_PASSWORD: undefined }), 'NATS_PASSWORD is not set; set it in the Secret');
  t.equal(refusal({ NATS_PASSWORD: 'REPLACEMEnatsPasswordOfTheWalletFromSecretStore' }), "NATS_PASSWORD is the template's placeholder; set it in the Secret");
  t.equal(refusal({ NATS_PASSWORD: 'p123456' }), 'NATS_PASSWORD is too short (7 characters, at least 32 in production); set it in the Secret');
  t.notMatch(refusal({ NATS_PASSWORD: 'p123456' }) ?? '', /p123456/, 'never echoed');
  t.notMatch(refusal({ SIGNING_KEY: 'k'.repeat(20) }) ?? '', /kkkk/, 'a value is never echoed');
  t.notMatch(refusal({ DATABASE_URL: 'postgres://u:@h/d' }) ?? '', /postgres:/, 'nor a URL');
});

t.test('the NATS identity settings: validated at start, never echoing the password', async (t) => {
  t.same(natsIdentityOptions({}), {}, 'none: no authentication, plain TCP (npm start, tests)');
  t.match(natsIdentityOptions({ NATS_USER: 'wallet', NATS_PASSWORD: natsPassword }), { user: 'wallet', pass: natsPassword, inboxPrefix: '_INBOX_wallet' });
  t.throws(() => natsIdentityOptions({ NATS_USER: 'wallet' }), /NATS_USER and NATS_PASSWORD go together \(NATS_PASSWORD is not set\)/);
  t.throws(() => natsIdentityOptions({ NATS_PASSWORD: natsPassword }), /NATS_USER is not set/);
  const thrown = (() => {
    try {
      natsIdentityOptions({ NATS_PASSWORD: natsPassword });
      return '';
    } catch (e) {
      return (e as Error).message;
    }
  })();
  t.notMatch(thrown, natsPassword, 'the password is not in the message');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bo-nats-tls-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'ca.crt'), 'a CA');
  t.match(natsIdentityOptions({ NATS_TLS_CA_FILE: path.join(dir, 'ca.crt') }), { tls: { caFile: path.join(dir, 'ca.crt') } });
  t.throws(() => natsIdentityOptions({ NATS_TLS_CA_FILE: path.join(dir, 'missing.crt') }), /NATS_TLS_CA_FILE .*missing\.crt cannot be read/);
  t.throws(() => natsIdentityOptions({ NATS_TLS_CERT_FILE: path.join(dir, 'ca.crt') }), /NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE go together/);
  t.throws(() => loadConfig(BaseConfigSchema, { NATS_PASSWORD: '1234567890' }), /NATS_PASSWORD/, 'a password nats-server would read as a number is refused');
  t.notMatch(
    (() => {
      try {
        loadConfig(BaseConfigSchema, { NATS_PASSWORD: '12345678901234567890secret' });
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })(),
    /secret/,
    'and not echoed',
  );
});
