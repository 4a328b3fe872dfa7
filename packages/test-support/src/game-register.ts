// Issue #59 item 5: under br-spa a production bet on a casino game needs a certificate valid now (the
// game register). What tests record for a game that is simply certified: a year's certificate issued
// yesterday (Brasília's days), under `PUT /admin/providers/{id}/games/{gameCode}/certificates/{number}`.
export const PUT_CERTIFICATE_SUBJECT = 'wallet.admin.providers.putCertificate';

const DAY_MS = 86_400_000;
const brasiliaDay = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(ms));

/** The request parts of a certificate valid from yesterday for a year: `params` and `body`. */
export function certifiedGame(providerId: string, gameCode: string, certificateNumber = `TEST-${gameCode}`) {
  return {
    params: { id: providerId, gameCode, certificateNumber },
    body: {
      laboratory: 'Test Laboratory',
      certifiedRtp: '96.00',
      version: '1.0.0',
      issuedOn: brasiliaDay(Date.now() - DAY_MS),
      validUntil: brasiliaDay(Date.now() + 365 * DAY_MS),
      regulatorReference: null,
    },
  };
}
