// Signing for the provider wallet API (`/provider/v1`): the same canonical-string HMAC as the
// operators' API, with the provider's key in X-Provider-Key and no Idempotency-Key (the provider's
// transactionId is the key of every money call). The snippets are the operators' request signers
// with those differences made (each replacement must apply: a change of the operators' snippets
// that breaks one fails at start-up and in the tests); the test vectors are computed with the code
// the gateway verifies with. test/e2e/provider-portal.test.ts runs every snippet against the system.
import { bodyDigest, canonicalString, PROVIDER_API_PREFIX, signRequest } from '@bo/contracts';
import { SIGNING_SNIPPETS } from './signing-snippets.ts';

type Lang = keyof typeof SIGNING_SNIPPETS.requestSigning;

/** [from, to] replacements per language, each of which must occur. */
const CHANGES: Record<Lang, [string | RegExp, string][]> = {
  node: [
    ["'X-Operator-Key'", "'X-Provider-Key'"],
    [/\/\/ Idempotent operations also need 'Idempotency-Key'.*\n/, ''],
  ],
  python: [['"X-Operator-Key"', '"X-Provider-Key"']],
  php: [["'X-Operator-Key: '", "'X-Provider-Key: '"]],
  ruby: [["'X-Operator-Key'", "'X-Provider-Key'"]],
  go: [['signs requests to the back-office API', 'signs requests to the provider wallet API']],
  bash: [
    ['(https://api.example.com, no /api/v1)', '(https://api.example.com, no /provider/v1)'],
    ['optionally METHOD (GET)', 'optionally METHOD (POST)'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansions, not a template
    ['METHOD=${METHOD:-GET}; P=${P:-/api/v1/me}', 'METHOD=${METHOD:-POST}; P=${P:-/provider/v1/balance}'],
    ['-H "X-Operator-Key: $KEY"', '-H "X-Provider-Key: $KEY"'],
    // Providers sign version 1: no Idempotency-Key (their transactionId is the key), no version header.
    [/, BODY and\n# IDEMPOTENCY_KEY \(.*\n/, ' and BODY.\n'],
    [/IK=''\nif \[ "\$METHOD" != GET \]; then IK=.*\n/, ''],
    [/# Signature version 2: .*\n# .*\n/, ''],
    [/printf 'v2\\n%s\\n%s\\n%s\\n%s\\n%s' "\$METHOD" "\$P" "\$TS" "\$DIGEST" "\$IK"/, `printf '%s\\n%s\\n%s\\n%s' "$METHOD" "$P" "$TS" "$DIGEST"`],
    [' -H "X-Signature-Version: 2"', ''],
    [/if \[ -n "\$IK" \]; then ARGS\+=\(-H "Idempotency-Key: \$IK"\); fi\n/, ''],
  ],
};

function providerSnippet(lang: Lang): string {
  let text = SIGNING_SNIPPETS.requestSigning[lang];
  for (const [from, to] of CHANGES[lang]) {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`provider signing snippet ${lang}: ${String(from)} not found in the operators' snippet`);
    text = next;
  }
  return text.replaceAll('/api/v1', PROVIDER_API_PREFIX);
}

export const PROVIDER_SIGNING_SNIPPETS = {
  description:
    'Sign every call: X-Provider-Key (pk_test_… or pk_live_…), X-Timestamp (epoch seconds) and X-Signature = lowercase hex HMAC-SHA256(psk_ secret, METHOD \\n PATH?QUERY \\n X-Timestamp \\n sha256hex(body bytes)), where PATH?QUERY is the path as sent (with /provider/v1) and the body digest is of the exact bytes sent. No Idempotency-Key: retry with the same transactionId. Every snippet is a complete file; check it against /provider/v1/test-vectors.json.',
  runtimes: SIGNING_SNIPPETS.runtimes,
  requestSigning: Object.fromEntries((Object.keys(SIGNING_SNIPPETS.requestSigning) as Lang[]).map((l) => [l, providerSnippet(l)])) as Record<Lang, string>,
};

const SECRET = 'psk_test_VectorSecretDoNotUseInProduction0000000000000';
const KEY = 'pk_test_VectorKey000000000000000000000';

/** Fixed provider requests and the signatures they must produce; the first is docs/providers.md's example. */
export function buildProviderTestVectors(prefix: string = PROVIDER_API_PREFIX) {
  const requests = [
    {
      method: 'POST',
      path: `${prefix}/bets`,
      timestamp: '1763719200',
      body: '{"transactionId":"bet-7731","token":"pst_3q2-Example-Token","roundId":"round-5512","gameCode":"sweet-fruits","amount":"10.00","currency":"BRL"}',
    },
    { method: 'POST', path: `${prefix}/authenticate`, timestamp: '1763719201', body: '{"token":"pst_3q2-Example-Token"}' },
    {
      method: 'POST',
      path: `${prefix}/rollbacks`,
      timestamp: '1763719260',
      body: '{"transactionId":"rb-9921","playerId":"plr_01934b7e8c8e7c3a9f2d1b0a11223344","betTransactionId":"bet-7731","roundId":"round-5512"}',
    },
    // Non-ASCII text is hashed as its UTF-8 bytes.
    {
      method: 'POST',
      path: `${prefix}/corrections`,
      timestamp: '1763719320',
      body: '{"transactionId":"cor-1201","playerId":"plr_01934b7e8c8e7c3a9f2d1b0a11223344","roundId":"slip-4410","amount":"-15.00","currency":"BRL","reason":"Gol anulado: reavaliação"}',
    },
  ].map((r) => ({
    ...r,
    key: KEY,
    secret: SECRET,
    bodyUtf8Bytes: Buffer.byteLength(r.body, 'utf8'),
    bodySha256: bodyDigest(r.body),
    canonicalString: canonicalString(r.method, r.path, r.timestamp, r.body),
    signature: signRequest(SECRET, r.method, r.path, r.timestamp, r.body),
  }));
  return {
    description:
      'X-Signature = lowercase hex HMAC-SHA256(psk_ secret, METHOD \\n PATH?QUERY \\n X-Timestamp \\n sha256hex(body)), sent with X-Provider-Key and X-Timestamp.',
    requests,
  };
}
