// Code to sign requests and verify webhooks, in several languages (GET /signing-snippets.json).
// Every snippet is a complete file that runs unmodified: test/e2e/signing-snippets.test.ts signs
// real requests with each and verifies a real delivery and the published test vectors with each
// (the rotation vector with either secret, each scheme's headers alone).

const NODE_SIGN = `// sign.mjs: Node 18+, no dependencies.
import { createHash, createHmac } from 'node:crypto';

// path: as sent, with /api/v1 and the query string exactly as in the URL (percent-encoding included).
// body: the exact string or Buffer you send ('' for GET and for a POST without a body).
export function signedHeaders(key, secret, method, path, body = '', timestamp = String(Math.floor(Date.now() / 1000))) {
  const digest = createHash('sha256').update(body).digest('hex');
  const signature = createHmac('sha256', secret).update([method.toUpperCase(), path, timestamp, digest].join('\\n')).digest('hex');
  const headers = { 'X-Operator-Key': key, 'X-Timestamp': timestamp, 'X-Signature': signature };
  if (body.length > 0) headers['Content-Type'] = 'application/json';
  return headers;
}
// Idempotent operations also need 'Idempotency-Key': crypto.randomUUID() (keep it when you retry).
`;

const PYTHON_SIGN = `# sign.py: Python 3.8+, standard library only.
import hashlib, hmac, time

def signed_headers(key, secret, method, path, body=b"", timestamp=None):
    """path: as sent, with /api/v1 and the query string exactly as in the URL.
    body: the exact bytes you send (a str is encoded as UTF-8); b"" for GET."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    ts = str(int(time.time())) if timestamp is None else str(timestamp)
    digest = hashlib.sha256(body).hexdigest()
    msg = "\\n".join([method.upper(), path, ts, digest]).encode("utf-8")
    sig = hmac.new(secret.encode("utf-8"), msg, hashlib.sha256).hexdigest()
    headers = {"X-Operator-Key": key, "X-Timestamp": ts, "X-Signature": sig}
    if body:
        headers["Content-Type"] = "application/json"
    return headers
`;

const PHP_SIGN = `<?php
// sign.php: PHP 7.4+, no extensions beyond the default hash.
// $path: as sent, with /api/v1 and the query string; $body: the exact bytes you send ('' for GET).
function signed_headers(string $key, string $secret, string $method, string $path, string $body = '', ?string $timestamp = null): array {
  $ts = $timestamp ?? (string) time();
  $msg = implode("\\n", [strtoupper($method), $path, $ts, hash('sha256', $body)]);
  $headers = ['X-Operator-Key: ' . $key, 'X-Timestamp: ' . $ts, 'X-Signature: ' . hash_hmac('sha256', $msg, $secret)];
  if ($body !== '') $headers[] = 'Content-Type: application/json';
  return $headers;
}
`;

const RUBY_SIGN = `# sign.rb: Ruby 2.7+, standard library only.
require 'openssl'

# path: as sent, with /api/v1 and the query string; body: the exact bytes you send ('' for GET).
def signed_headers(key, secret, method, path, body = '', timestamp = nil)
  ts = (timestamp || Time.now.to_i).to_s
  digest = OpenSSL::Digest::SHA256.hexdigest(body.b)
  msg = [method.upcase, path, ts, digest].join("\\n")
  headers = { 'X-Operator-Key' => key, 'X-Timestamp' => ts, 'X-Signature' => OpenSSL::HMAC.hexdigest('SHA256', secret, msg) }
  headers['Content-Type'] = 'application/json' unless body.empty?
  headers
end
`;

/** The Go files' package clause and imports, the same for signing and verifying (each file stands alone). */
const GO_PACKAGE = `package bosign

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)
`;

const GO_SIGN = `// Package bosign signs requests to the back-office API. Go 1.19+, standard library only.
${GO_PACKAGE}
// Sign returns X-Timestamp and X-Signature. path is as sent, with /api/v1 and the query string;
// body is the exact bytes you send (nil for GET). A zero now means the current time.
func Sign(secret, method, path string, body []byte, now time.Time) (ts, sig string) {
	if now.IsZero() {
		now = time.Now()
	}
	ts = strconv.FormatInt(now.Unix(), 10)
	d := sha256.Sum256(body)
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strings.ToUpper(method) + "\\n" + path + "\\n" + ts + "\\n" + hex.EncodeToString(d[:])))
	return ts, hex.EncodeToString(m.Sum(nil))
}
`;

const BASH_SIGN = `#!/usr/bin/env bash
# sign.sh: bash + openssl + curl. Set BASE to the ORIGIN (https://api.example.com, no /api/v1),
# KEY and SECRET; optionally METHOD (GET), P (the path with /api/v1 and the query, as sent), BODY and
# IDEMPOTENCY_KEY (a change gets a fresh one; give the same one to retry).
set -euo pipefail
METHOD=\${METHOD:-GET}; P=\${P:-/api/v1/me}; BODY=\${BODY-}
TS=$(date +%s)
IK=''
if [ "$METHOD" != GET ]; then IK=\${IDEMPOTENCY_KEY:-$(openssl rand -hex 16)}; fi
# The digest of exactly the bytes sent: of the empty string when there is no body (GET).
DIGEST=$(printf '%s' "$BODY" | openssl dgst -sha256 -hex | awk '{print $NF}')
# Signature version 2: the Idempotency-Key is signed too (the empty string without one), so two calls
# alike but for their keys in the same second are both taken.
SIG=$(printf 'v2\\n%s\\n%s\\n%s\\n%s\\n%s' "$METHOD" "$P" "$TS" "$DIGEST" "$IK" | openssl dgst -sha256 -hmac "$SECRET" -hex | awk '{print $NF}')
ARGS=(-sS -X "$METHOD" -H "X-Operator-Key: $KEY" -H "X-Timestamp: $TS" -H "X-Signature-Version: 2" -H "X-Signature: $SIG")
if [ -n "$IK" ]; then ARGS+=(-H "Idempotency-Key: $IK"); fi
if [ -n "$BODY" ]; then ARGS+=(-H 'Content-Type: application/json' --data-binary "$BODY"); fi
curl "\${ARGS[@]}" "$BASE$P"
`;

const NODE_VERIFY = `// verify-webhook.mjs: Node 18+, no dependencies.
import { createHmac, timingSafeEqual } from 'node:crypto';

// secrets: your whsec_ secret, or a list of them during a secret rotation (the new one and the
// previous one): a delivery signed with any of them is accepted. headers: any object of header
// names (any case) or a fetch Headers; rawBody: the Buffer exactly as received (never re-serialised
// JSON). Both schemes we send are checked, and a delivery passes when either verifies with its
// timestamp within toleranceSeconds of now (epoch seconds; pass the clock to check a recorded
// delivery or the published test vectors):
// - X-Webhook-Signature: hex HMAC-SHA256 keyed with the whole whsec_ string, over "timestamp.body";
// - Standard Webhooks webhook-signature: "v1,<base64>" entries (one per secret during a rotation),
//   HMAC-SHA256 keyed with the base64-decoded secret after whsec_, over "id.timestamp.body".
export function verifyWebhook(secrets, headers, rawBody, { toleranceSeconds = 300, now = Date.now() / 1000 } = {}) {
  const get = (name) => String((typeof headers.get === 'function' ? headers.get(name)
    : Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1]) ?? '');
  const fresh = (ts) => /^\\d+$/.test(ts) && Math.abs(now - Number(ts)) <= toleranceSeconds;
  const same = (a, b) => a.length === b.length && timingSafeEqual(a, b);
  const list = Array.isArray(secrets) ? secrets : [secrets];
  const body = Buffer.from(rawBody);

  const ts = get('x-webhook-timestamp');
  const hex = get('x-webhook-signature').toLowerCase();
  if (fresh(ts) && /^[0-9a-f]{64}$/.test(hex)) {
    const got = Buffer.from(hex, 'hex');
    if (list.some((s) => same(createHmac('sha256', s).update(ts + '.').update(body).digest(), got))) return true;
  }

  const id = get('webhook-id');
  const sts = get('webhook-timestamp');
  const sigs = get('webhook-signature').split(' ').filter((e) => e.startsWith('v1,')).map((e) => Buffer.from(e.slice(3), 'base64'));
  if (id && fresh(sts) && sigs.length > 0) {
    for (const s of list) {
      const key = Buffer.from(s.replace(/^whsec_/, ''), 'base64');
      const want = createHmac('sha256', key).update(id + '.' + sts + '.').update(body).digest();
      if (sigs.some((got) => same(want, got))) return true;
    }
  }
  return false;
}
// Deduplicate on the X-Webhook-Id (webhook-id) header: delivery is at-least-once.
`;

const PYTHON_VERIFY = `# verify_webhook.py: Python 3.8+, standard library only.
import base64, binascii, hashlib, hmac, re, time

def verify_webhook(secrets, headers, raw_body, tolerance=300, now=None):
    """secrets: your whsec_ secret, or a list of them during a secret rotation (the new one and the
    previous one): a delivery signed with any of them is accepted.
    headers: any mapping of header names in any case (a dict, Flask/Django/aiohttp headers).
    raw_body: the bytes exactly as received (a str is encoded as UTF-8).
    Both schemes we send are checked; a delivery passes when either verifies with its timestamp
    within tolerance seconds of now (epoch seconds, the clock):
    X-Webhook-Signature: hex HMAC-SHA256 keyed with the whole whsec_ string, over "timestamp.body";
    Standard Webhooks webhook-signature: "v1,<base64>" entries (one per secret during a rotation),
    HMAC-SHA256 keyed with the base64-decoded secret after whsec_, over "id.timestamp.body"."""
    if isinstance(secrets, str):
        secrets = [secrets]
    lower = {}
    for k, v in headers.items():
        lower[str(k).lower()] = v.decode("ascii") if isinstance(v, bytes) else str(v)
    if isinstance(raw_body, str):
        raw_body = raw_body.encode("utf-8")
    current = time.time() if now is None else now

    def fresh(ts):
        return bool(re.fullmatch(r"\\d+", ts)) and abs(current - int(ts)) <= tolerance

    ts = lower.get("x-webhook-timestamp", "")
    signature = lower.get("x-webhook-signature", "").lower()
    if fresh(ts) and re.fullmatch(r"[0-9a-f]{64}", signature):
        for secret in secrets:
            expected = hmac.new(secret.encode("utf-8"), ts.encode("ascii") + b"." + raw_body, hashlib.sha256).hexdigest()
            if hmac.compare_digest(expected.encode("ascii"), signature.encode("ascii")):
                return True

    msg_id = lower.get("webhook-id", "")
    sts = lower.get("webhook-timestamp", "")
    entries = [e[3:] for e in lower.get("webhook-signature", "").split(" ") if e.startswith("v1,")]
    if msg_id and fresh(sts) and entries:
        got = []
        for e in entries:
            try:
                got.append(base64.b64decode(e, validate=True))
            except (binascii.Error, ValueError):
                pass
        for secret in secrets:
            key = base64.b64decode(secret[6:] if secret.startswith("whsec_") else secret)
            expected = hmac.new(key, msg_id.encode("utf-8") + b"." + sts.encode("ascii") + b"." + raw_body, hashlib.sha256).digest()
            if any(hmac.compare_digest(expected, g) for g in got):
                return True
    return False
# Deduplicate on the X-Webhook-Id (webhook-id) header: delivery is at-least-once.
`;

const PHP_VERIFY = `<?php
// verify_webhook.php: PHP 7.4+. $secrets: your whsec_ secret, or a list of them during a secret
// rotation (the new one and the previous one): a delivery signed with any of them is accepted.
// $headers: the delivery's headers, names in any case (getallheaders()); $rawBody:
// file_get_contents('php://input'), never re-encoded JSON. Both schemes we send are checked; a
// delivery passes when either verifies with its timestamp within $tolerance seconds of $now:
// X-Webhook-Signature: hex HMAC-SHA256 keyed with the whole whsec_ string, over "timestamp.body";
// Standard Webhooks webhook-signature: "v1,<base64>" entries (one per secret during a rotation),
// HMAC-SHA256 keyed with the base64-decoded secret after whsec_, over "id.timestamp.body".
function verify_webhook($secrets, array $headers, string $rawBody, int $tolerance = 300, ?int $now = null): bool {
  $secrets = is_array($secrets) ? $secrets : [$secrets];
  $h = array_change_key_case($headers, CASE_LOWER);
  $now = $now ?? time();
  $fresh = function ($ts) use ($now, $tolerance) { return is_string($ts) && ctype_digit($ts) && abs($now - (int) $ts) <= $tolerance; };

  $ts = (string) ($h['x-webhook-timestamp'] ?? '');
  $signature = strtolower((string) ($h['x-webhook-signature'] ?? ''));
  if ($fresh($ts) && $signature !== '') {
    foreach ($secrets as $secret) {
      if (hash_equals(hash_hmac('sha256', $ts . '.' . $rawBody, $secret), $signature)) return true;
    }
  }

  $id = (string) ($h['webhook-id'] ?? '');
  $sts = (string) ($h['webhook-timestamp'] ?? '');
  if ($id !== '' && $fresh($sts)) {
    foreach ($secrets as $secret) {
      $key = base64_decode(strpos($secret, 'whsec_') === 0 ? substr($secret, 6) : $secret);
      $expected = base64_encode(hash_hmac('sha256', $id . '.' . $sts . '.' . $rawBody, $key, true));
      foreach (explode(' ', (string) ($h['webhook-signature'] ?? '')) as $entry) {
        if (strpos($entry, 'v1,') === 0 && hash_equals($expected, substr($entry, 3))) return true;
      }
    }
  }
  return false;
}
// Deduplicate on the X-Webhook-Id (webhook-id) header: delivery is at-least-once.
`;

const RUBY_VERIFY = `# verify_webhook.rb: Ruby 2.7+, standard library only.
require 'openssl'

# secrets: your whsec_ secret, or a list of them during a secret rotation (the new one and the
# previous one): a delivery signed with any of them is accepted. headers: a Hash with header names
# in any case; raw_body: the bytes exactly as received. Both schemes we send are checked; a delivery
# passes when either verifies with its timestamp within tolerance seconds of now:
# X-Webhook-Signature: hex HMAC-SHA256 keyed with the whole whsec_ string, over "timestamp.body";
# Standard Webhooks webhook-signature: "v1,<base64>" entries (one per secret during a rotation),
# HMAC-SHA256 keyed with the base64-decoded secret after whsec_, over "id.timestamp.body".
def verify_webhook(secrets, headers, raw_body, tolerance: 300, now: Time.now.to_i)
  secrets = Array(secrets)
  lower = headers.each_with_object({}) { |(k, v), h| h[k.to_s.downcase.tr('_', '-')] = v.to_s }
  body = raw_body.b
  fresh = ->(ts) { ts.match?(/\\A\\d+\\z/) && (now - ts.to_i).abs <= tolerance }
  same = ->(a, b) { a.bytesize == b.bytesize && OpenSSL.fixed_length_secure_compare(a, b) }

  ts = lower['x-webhook-timestamp'].to_s
  signature = lower['x-webhook-signature'].to_s.downcase
  if fresh.call(ts)
    return true if secrets.any? { |s| same.call(OpenSSL::HMAC.hexdigest('SHA256', s, "#{ts}.".b + body), signature) }
  end

  id = lower['webhook-id'].to_s
  sts = lower['webhook-timestamp'].to_s
  entries = lower['webhook-signature'].to_s.split(' ').select { |e| e.start_with?('v1,') }.map { |e| e[3..] }
  if !id.empty? && fresh.call(sts)
    secrets.each do |s|
      key = s.delete_prefix('whsec_').unpack1('m')
      want = [OpenSSL::HMAC.digest('SHA256', key, "#{id}.#{sts}.".b + body)].pack('m0')
      return true if entries.any? { |e| same.call(want, e) }
    end
  end
  false
end
# Deduplicate on the X-Webhook-Id (webhook-id) header: delivery is at-least-once.
`;

const GO_VERIFY = `// Package bosign verifies the back-office API's webhooks. Go 1.19+, standard library only.
package bosign

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Verify checks a delivery against secrets: your whsec_ secret, or during a secret rotation the
// new one and the previous one (a delivery signed with any of them is accepted). h is the
// request's header (r.Header), rawBody the bytes exactly as received, now the clock. Both schemes
// we send are checked; a delivery passes when either verifies with its timestamp within tolerance:
// X-Webhook-Signature: hex HMAC-SHA256 keyed with the whole whsec_ string, over "timestamp.body";
// Standard Webhooks webhook-signature: "v1,<base64>" entries (one per secret during a rotation),
// HMAC-SHA256 keyed with the base64-decoded secret after whsec_, over "id.timestamp.body".
func Verify(secrets []string, h http.Header, rawBody []byte, tolerance time.Duration, now time.Time) bool {
	fresh := func(ts string) bool {
		sec, err := strconv.ParseInt(ts, 10, 64)
		if err != nil || sec < 0 {
			return false
		}
		age := now.Sub(time.Unix(sec, 0))
		return age <= tolerance && age >= -tolerance
	}
	if ts, sig := h.Get("X-Webhook-Timestamp"), strings.ToLower(h.Get("X-Webhook-Signature")); fresh(ts) && sig != "" {
		for _, s := range secrets {
			m := hmac.New(sha256.New, []byte(s))
			m.Write([]byte(ts + "."))
			m.Write(rawBody)
			if hmac.Equal([]byte(hex.EncodeToString(m.Sum(nil))), []byte(sig)) {
				return true
			}
		}
	}
	id, ts := h.Get("Webhook-Id"), h.Get("Webhook-Timestamp")
	if id == "" || !fresh(ts) {
		return false
	}
	for _, s := range secrets {
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, "whsec_"))
		if err != nil {
			continue
		}
		m := hmac.New(sha256.New, key)
		m.Write([]byte(id + "." + ts + "."))
		m.Write(rawBody)
		want := m.Sum(nil)
		for _, entry := range strings.Fields(h.Get("Webhook-Signature")) {
			if !strings.HasPrefix(entry, "v1,") {
				continue
			}
			if got, err := base64.StdEncoding.DecodeString(entry[3:]); err == nil && hmac.Equal(want, got) {
				return true
			}
		}
	}
	return false
}
`;

const BASH_VERIFY = `#!/usr/bin/env bash
# verify-webhook.sh: bash + openssl. Usage: verify-webhook.sh BODY_FILE (the raw bytes as received).
# Environment: SECRETS (your whsec_ secret; during a secret rotation the new and the previous one,
# space-separated: a delivery signed with any of them is accepted), the delivery's headers
# X_WEBHOOK_TIMESTAMP, X_WEBHOOK_SIGNATURE, WEBHOOK_ID, WEBHOOK_TIMESTAMP, WEBHOOK_SIGNATURE, and
# optionally TOLERANCE (300 s) and NOW (epoch seconds, the clock; to check the test vectors).
# Exits 0 when X-Webhook-Signature (hex HMAC-SHA256 keyed with the whole whsec_ string over
# "timestamp.body") or a Standard Webhooks "v1,<base64>" entry of webhook-signature (HMAC-SHA256 keyed
# with the base64-decoded secret after whsec_, over "id.timestamp.body") verifies, its timestamp
# within TOLERANCE of NOW; 1 otherwise.
set -euo pipefail
BODY_FILE=$1; TOLERANCE=\${TOLERANCE:-300}; NOW=\${NOW:-$(date +%s)}
fresh() { [[ $1 =~ ^[0-9]{1,15}$ ]] && (( NOW - 10#$1 <= TOLERANCE && 10#$1 - NOW <= TOLERANCE )); }
# Compares two strings through an HMAC with a random key: the time taken says nothing about the secret.
NONCE=$(openssl rand -hex 32)
same() { [ "$(printf '%s' "$1" | openssl dgst -sha256 -hmac "$NONCE" -hex | awk '{print $NF}')" = "$(printf '%s' "$2" | openssl dgst -sha256 -hmac "$NONCE" -hex | awk '{print $NF}')" ]; }
if fresh "\${X_WEBHOOK_TIMESTAMP:-}" && [ -n "\${X_WEBHOOK_SIGNATURE:-}" ]; then
  for s in $SECRETS; do
    want=$( { printf '%s.' "$X_WEBHOOK_TIMESTAMP"; cat "$BODY_FILE"; } | openssl dgst -sha256 -hmac "$s" -hex | awk '{print $NF}')
    if same "$want" "$(printf '%s' "$X_WEBHOOK_SIGNATURE" | tr 'A-F' 'a-f')"; then exit 0; fi
  done
fi
if [ -n "\${WEBHOOK_ID:-}" ] && fresh "\${WEBHOOK_TIMESTAMP:-}" && [ -n "\${WEBHOOK_SIGNATURE:-}" ]; then
  for s in $SECRETS; do
    key=$(printf '%s' "\${s#whsec_}" | openssl base64 -d -A | od -An -v -tx1 | tr -d ' \\n')
    want=$( { printf '%s.%s.' "$WEBHOOK_ID" "$WEBHOOK_TIMESTAMP"; cat "$BODY_FILE"; } | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$key" -binary | openssl base64 -A)
    for entry in $WEBHOOK_SIGNATURE; do
      if [ "\${entry#v1,}" != "$entry" ] && same "$want" "\${entry#v1,}"; then exit 0; fi
    done
  done
fi
exit 1
`;

export const SIGNING_SNIPPETS = {
  description:
    'Sign every request: X-Signature = lowercase hex HMAC-SHA256(sk_ secret, METHOD \\n PATH?QUERY \\n X-Timestamp \\n sha256hex(body bytes)), where PATH?QUERY is the path as sent (with /api/v1, the query string exactly as in the URL) and the body digest is of the empty string when no body is sent. Verify webhooks with either scheme we send, whichever verifies: X-Webhook-Signature = hex HMAC-SHA256(whsec_ secret string, X-Webhook-Timestamp + "." + raw body), or a Standard Webhooks webhook-signature entry "v1," + base64 HMAC-SHA256(base64-decoded secret after whsec_, webhook-id + "." + webhook-timestamp + "." + raw body), compared in constant time, with the timestamp within a tolerance. The verifiers take a list of secrets: during the overlap of a secret rotation give the new and the previous one (X-Webhook-Signature stays on the previous secret until the overlap ends; webhook-signature carries one entry per secret). Every snippet is a complete file; the verifiers take a tolerance and a clock so the published test vector (/test-vectors.json) can be checked with them.',
  runtimes: {
    node: 'Node 18+',
    python: 'Python 3.8+',
    bash: 'bash + openssl + curl',
    php: 'PHP 7.4+',
    ruby: 'Ruby 2.7+',
    go: 'Go 1.19+',
  },
  requestSigning: { node: NODE_SIGN, python: PYTHON_SIGN, php: PHP_SIGN, ruby: RUBY_SIGN, go: GO_SIGN, bash: BASH_SIGN },
  webhookVerification: { node: NODE_VERIFY, python: PYTHON_VERIFY, php: PHP_VERIFY, ruby: RUBY_VERIFY, go: GO_VERIFY, bash: BASH_VERIFY },
  standardWebhooks:
    'Deliveries also carry webhook-id, webhook-timestamp and webhook-signature (v1,<base64>, one entry per secret during a rotation) per the Standard Webhooks spec: the verifiers here check them, and any Standard Webhooks library (e.g. npm standardwebhooks, svix) verifies them with the same whsec_ secret.',
};
