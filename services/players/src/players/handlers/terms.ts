// The operator's terms versions and the bettors' acceptances (issue 46; docs/players.md "Terms
// versions"). A publication changes what players.state answers for every player of the brand, an
// acceptance for its player: each is broadcast to the enforcing services' caches before the answer.
import { EVERY_PLAYER, playerChangedSubject, validationError, type PlayerChanged, type termsOperations } from '@bo/contracts';
import { operatorScopeOf, ormTransactor, requestKeyOf, ruleClock, runOnce, type HandlerOf, type ServiceDeps } from '@bo/service-kit';
import { requirePlayer } from '../../store/index.ts';
import { acceptancesOf, acceptedAtOf, brandVersions, recordAcceptance, recordVersion, toAcceptance, toTermsVersion, toTermsVersions } from '../store/terms.ts';
import { versionInForce } from '../domain/terms.ts';

/** A publication dated a little before our clock is the caller's clock or the network; more would rewrite the past. */
const BACKDATE_SLACK_MS = 5 * 60_000;

export function publishTermsVersion(deps: ServiceDeps): HandlerOf<typeof termsOperations.publishTermsVersion> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const input = req.body;
    const now = ruleClock.now();
    const publishedAt = input.publishedAt ? new Date(input.publishedAt) : now;
    if (publishedAt.getTime() < now.getTime() - BACKDATE_SLACK_MS) {
      throw validationError('body', [{ path: '/publishedAt', message: 'must not be more than 5 minutes in the past' }]);
    }
    const answer = await runOnce(
      ormTransactor(deps.orm.em),
      deps.schema,
      requestKeyOf(req.ctx),
      'players.terms.versions.publish',
      async (tx) => {
        const row = recordVersion(tx, scope, input, publishedAt, now);
        await tx.flush();
        return { status: 201, body: toTermsVersion(row, versionInForce(await brandVersions(tx, scope.brandId), now), now) };
      },
      { uniqueViolations: { terms_versions_brand_version: 'TERMS_VERSION_EXISTS' } },
    );
    // Every player of the brand has a new version to accept (now or at its publication).
    deps.nc.publish(playerChangedSubject(deps.prefix), JSON.stringify({ playerId: EVERY_PLAYER } satisfies PlayerChanged));
    return answer;
  };
}

export function listTermsVersions(deps: ServiceDeps): HandlerOf<typeof termsOperations.listTermsVersions> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    return { status: 200, body: { data: toTermsVersions(await brandVersions(deps.orm.em.fork(), scope.brandId), ruleClock.now()) } };
  };
}

/** Broadcast by the service's announcesChange (the route names its player). */
export function acceptTerms(deps: ServiceDeps): HandlerOf<typeof termsOperations.acceptTerms> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    return runOnce(ormTransactor(deps.orm.em), deps.schema, requestKeyOf(req.ctx), 'players.terms.accept', async (tx) => {
      const player = await requirePlayer(tx, { id: req.params.playerId, brandId: scope.brandId });
      const now = ruleClock.now();
      const row = recordAcceptance(tx, player.id, req.body, await acceptedAtOf(tx, player.brandId, req.body, now), now);
      await tx.flush();
      return { status: 201, body: toAcceptance(row) };
    });
  };
}

export function listTermsAcceptances(deps: ServiceDeps): HandlerOf<typeof termsOperations.listTermsAcceptances> {
  return async (req) => {
    const scope = operatorScopeOf(req);
    const em = deps.orm.em.fork();
    const player = await requirePlayer(em, { id: req.params.playerId, brandId: scope.brandId });
    return { status: 200, body: { data: (await acceptancesOf(em, player.id)).map(toAcceptance) } };
  };
}
