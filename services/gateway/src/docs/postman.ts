// A Postman v2.1 collection of every operation, with a pre-request script that signs the request.
import { openApiPath, type Operation } from '@bo/contracts';

const PRE_REQUEST = `// Signs the request as the API requires (X-Operator-Key, X-Timestamp, X-Signature).
const key = pm.environment.get('operatorKey') || pm.collectionVariables.get('operatorKey');
const secret = pm.environment.get('operatorSecret') || pm.collectionVariables.get('operatorSecret');
const ts = Math.floor(Date.now() / 1000).toString();
const url = pm.request.url;
const path = '/' + url.path.map((p) => pm.variables.replaceIn(p)).join('/') + (url.query && url.query.count() ? '?' + url.getQueryString() : '');
const fullPath = pm.variables.replaceIn('{{basePath}}') + path;
const body = pm.request.body && pm.request.body.raw ? pm.variables.replaceIn(pm.request.body.raw) : '';
const digest = CryptoJS.SHA256(body).toString(CryptoJS.enc.Hex);
const signature = CryptoJS.HmacSHA256([pm.request.method, fullPath, ts, digest].join('\\n'), secret).toString(CryptoJS.enc.Hex);
pm.request.headers.upsert({ key: 'X-Operator-Key', value: key });
pm.request.headers.upsert({ key: 'X-Timestamp', value: ts });
pm.request.headers.upsert({ key: 'X-Signature', value: signature });
if (!pm.request.headers.has('Idempotency-Key')) pm.request.headers.upsert({ key: 'Idempotency-Key', value: pm.variables.replaceIn('{{$guid}}') });`;

export function buildPostmanCollection(operations: Record<string, Operation>, serverUrl: string) {
  const u = new URL(serverUrl);
  const items = Object.values(operations).map((op) => {
    const segments = openApiPath(op.path).split('/').filter(Boolean).map((s) => s.replace(/^\{(.+)\}$/, ':$1'));
    return {
      name: op.summary,
      request: {
        method: op.method,
        header: [{ key: 'Content-Type', value: 'application/json' }],
        url: {
          raw: `{{baseUrl}}/${segments.join('/')}`, host: ['{{baseUrl}}'], path: segments,
          variable: segments.filter((s) => s.startsWith(':')).map((s) => ({ key: s.slice(1), value: '' })),
        },
        ...(op.body ? { body: { mode: 'raw', raw: '{}', options: { raw: { language: 'json' } } } } : {}),
        description: `${op.id}${op.idempotent ? ' (idempotent: Idempotency-Key is set by the pre-request script)' : ''}${op.sandboxOnly ? ' (sandbox only)' : ''}`,
      },
    };
  });
  return {
    info: { name: 'Operator Gaming Back-Office API', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: PRE_REQUEST.split('\n') } }],
    variable: [
      { key: 'baseUrl', value: serverUrl }, { key: 'basePath', value: u.pathname.replace(/\/$/, '') },
      { key: 'operatorKey', value: 'bk_test_...' }, { key: 'operatorSecret', value: 'sk_test_...' },
    ],
    item: items,
  };
}
