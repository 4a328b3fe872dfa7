// `npm run hub88:vectors -- <dir>`: our Hub88 signature code against Hub88's own published
// vectors (docs/connectors-hub88.md, "Signatures"). <dir> is a checkout of
// https://github.com/coingaming/Hub88-Examples (or HUB88_EXAMPLES): its priv/public.pem and
// priv/private.pem (the demo key pair) and signatures.csv (`data;signature` rows, signed with the
// demo private key). Every published signature must verify with our verification and the demo
// public key, must stop verifying when its data changes by one byte, and must be what our signing
// makes of its data with the demo private key (RSA-SHA256 PKCS #1 v1.5 is deterministic). Their
// files are read where they are, never copied into this repository. Exits 1 on any difference.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { hub88PrivateKey, hub88PublicKey, signHub88, verifyHub88 } from '@bo/contracts';

const dir = process.argv[2] ?? process.env.HUB88_EXAMPLES;
if (!dir) {
  console.error('usage: npm run hub88:vectors -- <checkout of github.com/coingaming/Hub88-Examples>  (or HUB88_EXAMPLES=<dir>)');
  process.exit(2);
}
const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
const publicKey = hub88PublicKey(read('priv/public.pem'));
const privateKey = hub88PrivateKey(read('priv/private.pem'));
const rows = read('signatures.csv')
  .split('\n')
  .slice(1)
  .filter((line) => line.trim() !== '');

let failed = 0;
for (const row of rows) {
  // The data may hold `;` (JSON does not here, but the signature never does): split at the last one.
  const at = row.lastIndexOf(';');
  const data = row.slice(0, at);
  const signature = row.slice(at + 1).trim();
  const checks = {
    verifies: verifyHub88(data, signature, [publicKey]),
    reproduced: signHub88(data, privateKey) === signature,
    changedDataFails: !verifyHub88(`${data} `, signature, [publicKey]),
  };
  const ok = Object.values(checks).every(Boolean);
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${JSON.stringify(data.length > 60 ? `${data.slice(0, 57)}...` : data)} ${JSON.stringify(checks)}`);
}
console.log(`${rows.length} published vectors, ${rows.length - failed} reproduced`);
process.exitCode = rows.length > 0 && failed === 0 ? 0 : 1;
