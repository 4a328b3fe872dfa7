// A webhook secret rotation seen by an operator using the SDK, against the real processes: our team
// rotates the secret with an overlap (admin API), and a delivery made during the overlap, captured as
// the receiver got it, verifies with the SDK's default given only the new secret (its
// `webhook-signature` carries both secrets; `X-Webhook-Signature` stays on the previous one), given
// only the previous secret, or both, and is refused with any other secret.
import t from 'tap';
import { waitFor } from '@bo/service-kit/testing';
import { BackOffice, WebhookVerificationError, verifyWebhook, type VerifiedWebhook } from '../../packages/sdk/src/index.ts';
import { startStack } from './support/stack.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';

t.test('during a webhook secret rotation the SDK verifies deliveries with the new secret alone', async (t) => {
  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('SDK Rotation Bets');
  const previous = op.sandbox.webhookSecret;
  // The receiver records every delivery (raw bytes and headers) and answers 2xx to the ones that
  // verify with the previous secret: what an operator that has not switched yet runs.
  const receiver = await startWebhookReceiver(previous);
  t.teardown(() => receiver.close());
  t.equal((await stack.admin('PUT', `/admin/operators/${op.operator.id}/webhooks/sandbox`, { url: receiver.url })).status, 200);
  t.equal((await stack.firstTestWebhook(op.sandboxClient)).status, 200, 'the endpoint is in place');

  const rotated = await stack.admin('POST', `/admin/operators/${op.operator.id}/webhooks/sandbox/rotate-secret`, { overlapSeconds: 3600 });
  t.equal(rotated.status, 200, rotated.status === 200 ? 'rotated with an hour of overlap' : JSON.stringify(rotated.body));
  const next = rotated.body.webhookSecret as string;
  t.ok(next.startsWith('whsec_') && next !== previous, 'a new secret');

  // A delivery in the overlap, sent by the operator through the SDK: the rotation is in force when
  // the webhooks service has it (at once when it answered the gateway; else from its event).
  const sdk = new BackOffice({ baseUrl: `${stack.publicUrl}/api/v1`, key: op.sandbox.key, secret: op.sandbox.secret, webhookSecret: next });
  const during = await waitFor(
    async () => {
      const { eventId } = await sdk.webhooks.test();
      const delivery = receiver.received.find((r) => r.id === eventId);
      return delivery && String(delivery.headers['webhook-signature']).split(' ').length === 2 ? delivery : undefined;
    },
    { timeoutMs: 60_000, what: 'a delivery signed with both secrets' },
  );

  const verdictOf = (verify: () => VerifiedWebhook) => {
    try {
      const v = verify();
      return `${v.scheme} ${v.id === during.id && v.event.id === during.id ? 'same id' : 'other id'}`;
    } catch (e) {
      return e instanceof WebhookVerificationError ? e.reason : `threw ${(e as Error).name}`;
    }
  };
  const verdict = (secret: string | string[]) => verdictOf(() => verifyWebhook(during.raw, during.headers, { secret }));
  t.same(
    {
      newOnly: verdict(next),
      previousOnly: verdict(previous),
      both: verdict([next, previous]),
      other: verdict('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='),
      client: verdictOf(() => sdk.webhooks.verify(during.raw, during.headers)),
    },
    {
      newOnly: 'standard-webhooks same id',
      previousOnly: 'x-webhook same id',
      both: 'x-webhook same id',
      other: 'invalid_signature',
      client: 'standard-webhooks same id',
    },
    'new secret alone (webhook-signature), previous alone (X-Webhook-Signature), both, the client given the new one; any other refused',
  );
});
