// Secret settings and the production rule. A setting that holds a secret is declared in its config
// schema with `secretKey` (a key or token) or `secretUrl` (a connection URL whose password is the
// secret); its default is a development value, public in this repository, that serves local runs
// and tests. With NODE_ENV=production a process refuses to start while any secret its schema reads
// is unset, still the development default, a template placeholder or too weak (`productionRefusal`,
// called by runMain before anything connects). deploy/k8s/check-manifests.ts reads the same
// declarations to check that every one of them is wired from the Secret.
// A provider's credential (the SPA registry's token, the PSP's, the screening provider's key) is
// declared with `providerSecret`: it has no default and is needed only once its adapter is chosen
// (the service's setup refuses to start without it then); while a simulator answers it is absent.
// It comes from its own Secret (deploy/k8s provider-secrets.template.yaml, optional in the pods);
// production refuses one that is set to a template placeholder.
// The NATS password (`natsPassword`, NATS_PASSWORD in the kit's base settings) has no default either
// (a local nats-server takes anyone); production refuses it unset, a placeholder or short, as a key.
import { Type, type TObject, type TOptional, type TString } from '@sinclair/typebox';

/** How a secret is judged: a key (long enough) or a connection URL (must carry a password). */
export type SecretKind = 'key' | 'url';

/** The shortest key production accepts (the schemas accept 16 elsewhere, for local runs and tests). */
export const PRODUCTION_SECRET_MIN_LENGTH = 32;

/** What deploy/k8s/secret.template.yaml puts in every value (`REPLACEME` where a value may hold only letters and digits): never a real secret. */
const TEMPLATE_PLACEHOLDER = /REPLACE-?ME/;

/** A key or token setting: at least 16 characters anywhere, refused in production while it is `devDefault`. */
export function secretKey(devDefault: string): TString {
  return Type.String({ default: devDefault, minLength: 16, secret: 'key' satisfies SecretKind });
}

/** A connection URL setting whose password is the secret: production refuses one without a password. */
export function secretUrl(devDefault: string): TString {
  return Type.String({ default: devDefault, secret: 'url' satisfies SecretKind });
}

/** A provider adapter's credential: optional (absent while a simulator answers), never logged, never a placeholder in production. */
export function providerSecret(): TOptional<TString> {
  return Type.Optional(Type.String({ minLength: 1, secret: 'provider' }));
}

/**
 * The NATS password (NATS_PASSWORD, the kit's base settings): no default, since a local nats-server
 * takes clients without authentication; production refuses it unset, a placeholder or short, as a key.
 * A letter, then letters and digits: nats-server reads it from its environment as a config value,
 * where `1234`, `1k` or `1.5` would be a number and `a b` a syntax error (deploy/k8s/README.md).
 */
export function natsPassword(): TOptional<TString> {
  return Type.Optional(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9]*$', secret: 'nats' }));
}

/** The provider credentials a config schema reads (`providerSecret`), by name. */
export function providerSecretsOf(schema: TObject): string[] {
  return Object.entries(schema.properties)
    .filter(([, p]) => p.secret === 'provider')
    .map(([name]) => name);
}

/** The NATS passwords a config schema reads (`natsPassword`): NATS_PASSWORD in every component's. */
export function natsPasswordsOf(schema: TObject): string[] {
  return Object.entries(schema.properties)
    .filter(([, p]) => p.secret === 'nats')
    .map(([name]) => name);
}

export interface SecretSetting {
  name: string;
  kind: SecretKind;
  devDefault: string | undefined;
}

/** The secret settings a config schema reads, from their declarations. */
export function secretSettingsOf(schema: TObject): SecretSetting[] {
  return Object.entries(schema.properties)
    .filter(([, p]) => p.secret === 'key' || p.secret === 'url')
    .map(([name, p]) => ({ name, kind: p.secret as SecretKind, devDefault: typeof p.default === 'string' ? p.default : undefined }));
}

/** Why one secret's value is not fit for production, or undefined when it is. */
export function productionProblem(setting: SecretSetting, value: string | undefined): string | undefined {
  const { name } = setting;
  if (value === undefined || value === '') return `${name} is not set`;
  if (value === setting.devDefault) return `${name} is the development default`;
  if (TEMPLATE_PLACEHOLDER.test(value)) return `${name} is the template's placeholder`;
  if (setting.kind === 'url') {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url?.host) return `${name} is not a URL of the form scheme://user:password@host/name`;
    if (url.password === '') return `${name} has no password`;
    return undefined;
  }
  if (value.length < PRODUCTION_SECRET_MIN_LENGTH)
    return `${name} is too short (${value.length} characters, at least ${PRODUCTION_SECRET_MIN_LENGTH} in production)`;
  return undefined;
}

/**
 * With NODE_ENV=production: why the process must not start (one line, naming every secret at
 * fault), or undefined when every secret its schema reads is fit. Outside production: undefined.
 */
export function productionRefusal(schema: TObject, env: Record<string, string | undefined>): string | undefined {
  if (env.NODE_ENV !== 'production') return undefined;
  const problems = [
    ...secretSettingsOf(schema).map((s) => productionProblem(s, env[s.name])),
    // A provider credential may be absent (its simulator answers), but never a template's placeholder.
    ...providerSecretsOf(schema).map((name) =>
      env[name] !== undefined && TEMPLATE_PLACEHOLDER.test(env[name]) ? `${name} is the template's placeholder` : undefined,
    ),
    // NATS takes only known identities in production (deploy/k8s nats.yaml): a process without its password would never connect.
    ...natsPasswordsOf(schema).map((name) => productionProblem({ name, kind: 'key', devDefault: undefined }, env[name])),
  ].filter((p) => p !== undefined);
  if (problems.length === 0) return undefined;
  return `${problems.join(', ')}; set ${problems.length === 1 ? 'it' : 'them'} in the Secret`;
}
