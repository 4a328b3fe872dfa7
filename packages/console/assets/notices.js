// The console's notice to compliance (issue #56): on every page, for compliance and admin, an
// operator whose br-spa rules someone asked to turn off (waiting for a second person) or which a
// second person turned off in the last seven days, with who, why and when, and a link to the operator.
import { html, api, query, useLoad, OperatorName, person, say } from './kit.js';

const RECENT_MS = 7 * 24 * 3_600_000;

export function ComplianceNotices() {
  const changes = useLoad(() => api('GET', `/admin/compliance-changes${query({ limit: 20 })}`).catch(() => ({ data: [] })));
  const now = Date.now();
  const shown = (changes.data?.data ?? []).filter(
    (c) => c.status === 'pending' || (c.status === 'confirmed' && now - Date.parse(c.decidedAt) < RECENT_MS && c.change.profile === 'off'),
  );
  if (shown.length === 0) return null;
  const operator = (c) =>
    html`<a href=${`/operators#${encodeURIComponent(c.operatorId)}`} title=${c.operatorId}><${OperatorName} operatorId=${c.operatorId} /></a>`;
  return html`<aside class="notices" aria-label="Compliance notices">${shown.map(
    (c) => html`<p class="notice" role="status" data-change=${c.id} data-status=${c.status}>
      ${
        c.status === 'pending'
          ? say(
              html`<strong>Pedido de desligar as regras br-spa</strong> de ${operator(c)} por ${person(c.requestedBy)}: “${c.reason}”. Aguarda uma segunda pessoa.`,
              html`<strong>Br-spa rules off requested</strong> for ${operator(c)} by ${person(c.requestedBy)}: “${c.reason}”. It waits for a second person.`,
            )
          : say(
              html`<strong>Regras br-spa desligadas</strong> de ${operator(c)}: pedido por ${person(c.requestedBy)} (“${c.reason}”), confirmado por ${person(c.decidedBy)} (“${c.decisionReason}”).`,
              html`<strong>Br-spa rules turned off</strong> for ${operator(c)}: requested by ${person(c.requestedBy)} (“${c.reason}”), confirmed by ${person(c.decidedBy)} (“${c.decisionReason}”).`,
            )
      }
    </p>`,
  )}</aside>`;
}
