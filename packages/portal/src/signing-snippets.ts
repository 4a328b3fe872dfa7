// Code to sign requests and verify webhooks, in several languages (GET /signing-snippets.json).
// Every snippet is a complete file that runs unmodified: test/e2e/signing-snippets.test.ts signs
// real requests with each and verifies a real delivery and the published test vector with each.

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
# KEY and SECRET; optionally METHOD (GET), P (the path with /api/v1 and the query, as sent) and BODY.
set -euo pipefail
METHOD=\${METHOD:-GET}; P=\${P:-/api/v1/me}; BODY=\${BODY-}
TS=$(date +%s)
# The digest of exactly the bytes sent: of the empty string when there is no body (GET).
DIGEST=$(printf '%s' "$BODY" | openssl dgst -sha256 -hex | awk '{print $NF}')
SIG=$(printf '%s\\n%s\\n%s\\n%s' "$METHOD" "$P" "$TS" "$DIGEST" | openssl dgst -sha256 -hmac "$SECRET" -hex | awk '{print $NF}')
ARGS=(-sS -X "$METHOD" -H "X-Operator-Key: $KEY" -H "X-Timestamp: $TS" -H "X-Signature: $SIG")
if [ "$METHOD" != GET ]; then ARGS+=(-H "Idempotency-Key: \${IDEMPOTENCY_KEY:-$(openssl rand -hex 16)}"); fi
if [ -n "$BODY" ]; then ARGS+=(-H 'Content-Type: application/json' --data-binary "$BODY"); fi
curl "\${ARGS[@]}" "$BASE$P"
`;

const NODE_VERIFY = `// verify-webhook.mjs: Node 18+, no dependencies.
import { createHmac, timingSafeEqual } from 'node:crypto';

// headers: any object of header names (any case) or a fetch Headers; rawBody: the Buffer exactly as
// received (never re-serialised JSON). toleranceSeconds bounds the timestamp's age; now (epoch
// seconds) is the clock, so a recorded delivery or the published test vector can be checked too.
export function verifyWebhook(secret, headers, rawBody, { toleranceSeconds = 300, now = Date.now() / 1000 } = {}) {
  const get = (name) => typeof headers.get === 'function' ? headers.get(name)
    : Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const ts = String(get('x-webhook-timestamp') ?? '');
  const signature = String(get('x-webhook-signature') ?? '');
  if (!/^\\d+$/.test(ts) || Math.abs(now - Number(ts)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(ts + '.').update(rawBody).digest();
  const got = Buffer.from(signature, 'hex');
  return got.length === expected.length && timingSafeEqual(got, expected);
}
// Deduplicate on the X-Webhook-Id header: delivery is at-least-once.
`;

const PYTHON_VERIFY = `# verify_webhook.py: Python 3.8+, standard library only.
import hashlib, hmac, time

def verify_webhook(secret, headers, raw_body, tolerance=300, now=None):
    """headers: any mapping of header names in any case (a dict, Flask/Django/aiohttp headers).
    raw_body: the bytes exactly as received (a str is encoded as UTF-8).
    tolerance bounds the timestamp's age in seconds; now (epoch seconds) is the clock."""
    lower = {str(k).lower(): v for k, v in headers.items()}
    ts = lower.get("x-webhook-timestamp")
    signature = lower.get("x-webhook-signature")
    if isinstance(ts, bytes):
        ts = ts.decode("ascii")
    if isinstance(signature, bytes):
        signature = signature.decode("ascii")
    if not ts or not signature or not str(ts).isdigit():
        return False
    if isinstance(raw_body, str):
        raw_body = raw_body.encode("utf-8")
    current = time.time() if now is None else now
    if abs(current - int(ts)) > tolerance:
        return False
    expected = hmac.new(secret.encode("utf-8"), str(ts).encode("ascii") + b"." + raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode("ascii"), str(signature).lower().encode("ascii"))
# Deduplicate on the X-Webhook-Id header: delivery is at-least-once.
`;

const PHP_VERIFY = `<?php
// verify_webhook.php: PHP 7.4+. $rawBody: file_get_contents('php://input'), never re-encoded JSON.
// $ts and $signature: the X-Webhook-Timestamp and X-Webhook-Signature headers
// ($_SERVER['HTTP_X_WEBHOOK_TIMESTAMP'], $_SERVER['HTTP_X_WEBHOOK_SIGNATURE']).
function verify_webhook(string $secret, string $ts, string $signature, string $rawBody, int $tolerance = 300, ?int $now = null): bool {
  if (!ctype_digit($ts) || abs(($now ?? time()) - (int) $ts) > $tolerance) return false;
  return hash_equals(hash_hmac('sha256', $ts . '.' . $rawBody, $secret), strtolower($signature));
}
`;

const RUBY_VERIFY = `# verify_webhook.rb: Ruby 2.7+, standard library only.
require 'openssl'

# headers: a Hash with header names in any case; raw_body: the bytes exactly as received.
def verify_webhook(secret, headers, raw_body, tolerance: 300, now: Time.now.to_i)
  lower = headers.each_with_object({}) { |(k, v), h| h[k.to_s.downcase.tr('_', '-')] = v.to_s }
  ts = lower['x-webhook-timestamp'].to_s
  signature = lower['x-webhook-signature'].to_s.downcase
  return false unless ts.match?(/\\A\\d+\\z/) && (now - ts.to_i).abs <= tolerance
  expected = OpenSSL::HMAC.hexdigest('SHA256', secret, "#{ts}.#{raw_body.b}")
  expected.bytesize == signature.bytesize && OpenSSL.fixed_length_secure_compare(expected, signature)
end
`;

const GO_VERIFY = `// Package bosign verifies the back-office API's webhooks. Go 1.19+, standard library only.
${GO_PACKAGE}
// Verify checks X-Webhook-Signature over the raw body. ts and signature are the X-Webhook-Timestamp
// and X-Webhook-Signature headers (r.Header.Get is case-insensitive); now is the clock.
func Verify(secret, ts, signature string, rawBody []byte, tolerance time.Duration, now time.Time) bool {
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	age := now.Sub(time.Unix(sec, 0))
	if age > tolerance || age < -tolerance {
		return false
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts + "."))
	m.Write(rawBody)
	want := hex.EncodeToString(m.Sum(nil))
	return hmac.Equal([]byte(want), []byte(strings.ToLower(signature)))
}
`;

export const SIGNING_SNIPPETS = {
  description:
    'Sign every request: X-Signature = lowercase hex HMAC-SHA256(sk_ secret, METHOD \\n PATH?QUERY \\n X-Timestamp \\n sha256hex(body bytes)), where PATH?QUERY is the path as sent (with /api/v1, the query string exactly as in the URL) and the body digest is of the empty string when no body is sent. Verify webhooks: hex HMAC-SHA256(whsec_ secret string, X-Webhook-Timestamp + "." + raw body) equals X-Webhook-Signature, compared in constant time, with the timestamp within a tolerance. Every snippet is a complete file; the verifiers take a tolerance and a clock so the published test vector (/test-vectors.json) can be checked with them.',
  runtimes: {
    node: 'Node 18+',
    python: 'Python 3.8+',
    bash: 'bash + openssl + curl',
    php: 'PHP 7.4+',
    ruby: 'Ruby 2.7+',
    go: 'Go 1.19+',
  },
  requestSigning: { node: NODE_SIGN, python: PYTHON_SIGN, php: PHP_SIGN, ruby: RUBY_SIGN, go: GO_SIGN, bash: BASH_SIGN },
  webhookVerification: { node: NODE_VERIFY, python: PYTHON_VERIFY, php: PHP_VERIFY, ruby: RUBY_VERIFY, go: GO_VERIFY },
  standardWebhooks:
    'Deliveries also carry webhook-id, webhook-timestamp and webhook-signature (v1,<base64>) per the Standard Webhooks spec: any Standard Webhooks library (e.g. npm standardwebhooks, svix) verifies them with the same whsec_ secret.',
};
