// `webhooks.test` (POST /webhooks/test): one attempt now of a `webhook.test` event to the
// operator's URL for the credential's environment, recorded like every attempt, never retried.
import { AppError, newId, WEBHOOK_TEST_RPC_TIMEOUT_MS, type DomainEvent, type WebhookTestResult, type webhookOperations } from '@bo/contracts';
import type { HandlerOf } from '@bo/service-kit';
import { performAttempt } from '../delivery/attempt.ts';
import { nextStepAfter } from '../domain/retry-schedule.ts';
import { recordAttemptResult, startTestAttempt } from '../store/delivery-queue.ts';
import { signingEndpoint } from '../store/endpoint-store.ts';
import type { WebhooksRuntime } from '../runtime.ts';
import { operatorScopeOf } from '@bo/service-kit';

export const TEST_MESSAGE = 'This is a test event from the back-office API.';

/** The test attempt must end well before the gateway stops waiting for our reply. */
const TEST_TIMEOUT_CAP_MS = WEBHOOK_TEST_RPC_TIMEOUT_MS - 3_000;

export function testWebhook(rt: WebhooksRuntime): HandlerOf<typeof webhookOperations.testWebhook> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const endpoint = await signingEndpoint(rt.deps.sql, scope);
    if (!endpoint?.url || !endpoint.secret_sealed) throw new AppError('WEBHOOK_NOT_CONFIGURED');

    const event: DomainEvent<'webhook.test'> = {
      id: newId('event'),
      type: 'webhook.test',
      createdAt: new Date().toISOString(),
      environment: scope.environment,
      data: { message: TEST_MESSAGE },
    };
    const claimed = await startTestAttempt(
      rt.deps.sql,
      {
        id: event.id,
        type: event.type,
        environment: event.environment,
        operatorId: scope.operatorId,
        brandId: scope.brandId,
        body: Buffer.from(JSON.stringify(event)),
        createdAt: event.createdAt,
        source: 'test',
      },
      { url: endpoint.url, secretSealed: endpoint.secret_sealed, previousSecretSealed: endpoint.previous_secret_sealed },
      rt.leaseMs,
    );

    const result = await performAttempt(claimed, { ...rt.attempt, timeoutMs: Math.min(rt.attempt.timeoutMs, TEST_TIMEOUT_CAP_MS) });
    await recordAttemptResult(rt.deps.sql, claimed, result, nextStepAfter(1, 1, result, rt.schedule));
    const body: WebhookTestResult = {
      eventId: event.id,
      url: endpoint.url,
      delivered: result.delivered,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
    };
    return { status: 200, body };
  };
}
