// Code to sign requests and verify webhooks, in several languages (GET /signing-snippets.json).
export const SIGNING_SNIPPETS = {
  description: 'Sign every request: X-Signature = hex HMAC-SHA256(secret, METHOD\\nPATH?QUERY\\nTIMESTAMP\\nsha256hex(body)). Verify webhooks: hex HMAC-SHA256(whsec secret, timestamp + "." + raw body) equals X-Webhook-Signature, compared in constant time.',
  requestSigning: {
    node: `import { createHash, createHmac } from 'node:crypto';
export function signedHeaders(key, secret, method, path, body = '') {
  const ts = String(Math.floor(Date.now() / 1000));
  const digest = createHash('sha256').update(body).digest('hex');
  const sig = createHmac('sha256', secret).update([method.toUpperCase(), path, ts, digest].join('\\n')).digest('hex');
  return { 'X-Operator-Key': key, 'X-Timestamp': ts, 'X-Signature': sig, 'Content-Type': 'application/json' };
}
// path includes /api/v1 and the query string; body is the exact string you send.`,
    python: `import hashlib, hmac, time
def signed_headers(key, secret, method, path, body=b""):
    ts = str(int(time.time()))
    digest = hashlib.sha256(body).hexdigest()
    msg = "\\n".join([method.upper(), path, ts, digest]).encode()
    sig = hmac.new(secret.encode(), msg, hashlib.sha256).hexdigest()
    return {"X-Operator-Key": key, "X-Timestamp": ts, "X-Signature": sig, "Content-Type": "application/json"}`,
    php: `function signed_headers($key, $secret, $method, $path, $body = '') {
  $ts = (string) time();
  $msg = implode("\\n", [strtoupper($method), $path, $ts, hash('sha256', $body)]);
  return ['X-Operator-Key: ' . $key, 'X-Timestamp: ' . $ts, 'X-Signature: ' . hash_hmac('sha256', $msg, $secret), 'Content-Type: application/json'];
}`,
    go: `func Sign(secret, method, path string, body []byte) (ts, sig string) {
	ts = strconv.FormatInt(time.Now().Unix(), 10)
	d := sha256.Sum256(body)
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strings.ToUpper(method) + "\\n" + path + "\\n" + ts + "\\n" + hex.EncodeToString(d[:])))
	return ts, hex.EncodeToString(m.Sum(nil))
}`,
    bash: `TS=$(date +%s); BODY='{}'; P=/api/v1/me
DIGEST=$(printf '%s' "$BODY" | openssl dgst -sha256 -hex | awk '{print $NF}')
SIG=$(printf 'GET\\n%s\\n%s\\n%s' "$P" "$TS" "$DIGEST" | openssl dgst -sha256 -hmac "$SECRET" -hex | awk '{print $NF}')
curl -H "X-Operator-Key: $KEY" -H "X-Timestamp: $TS" -H "X-Signature: $SIG" "$BASE$P"`,
  },
  webhookVerification: {
    node: `import { createHmac, timingSafeEqual } from 'node:crypto';
// rawBody: the Buffer exactly as received (do not re-serialise parsed JSON).
export function verifyWebhook(secret, headers, rawBody) {
  const ts = headers['x-webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const expected = createHmac('sha256', secret).update(ts + '.').update(rawBody).digest();
  const got = Buffer.from(String(headers['x-webhook-signature']), 'hex');
  return got.length === expected.length && timingSafeEqual(got, expected);
}
// Deduplicate on headers['x-webhook-id']: delivery is at-least-once.`,
    python: `import hashlib, hmac, time
def verify_webhook(secret, headers, raw_body: bytes) -> bool:
    ts = headers["X-Webhook-Timestamp"]
    if abs(time.time() - int(ts)) > 300:
        return False
    expected = hmac.new(secret.encode(), ts.encode() + b"." + raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, headers["X-Webhook-Signature"])`,
    php: `function verify_webhook($secret, $ts, $signature, $rawBody) {
  if (abs(time() - (int) $ts) > 300) return false;
  return hash_equals(hash_hmac('sha256', $ts . '.' . $rawBody, $secret), $signature);
}`,
    go: `func Verify(secret, ts, signature string, rawBody []byte) bool {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts + "."))
	m.Write(rawBody)
	want := hex.EncodeToString(m.Sum(nil))
	return hmac.Equal([]byte(want), []byte(signature))
}`,
  },
  standardWebhooks: 'Deliveries also carry webhook-id, webhook-timestamp and webhook-signature (v1,<base64>) per the Standard Webhooks spec: any Standard Webhooks library verifies them with the same whsec_ secret.',
};
