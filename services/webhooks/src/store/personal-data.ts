// What the webhooks service holds about a player (issue #69; docs/privacy.md): the events sent to the
// operator (the controller) carry the player's id and what each event says; they are copies of what the
// other services hold, kept as sent for redelivery and its proof, and deleted after
// WEBHOOK_EVENT_RETENTION_DAYS (30: store/event-retention.ts). Not exported (each datum is in the file
// from its own service), not anonymised (a signed body cannot change, and it is gone within 30 days):
// docs/privacy.md, "The webhooks service's events".
import { KIT_TABLES_WITHOUT_PLAYERS, type PersonalDataCatalogue } from '@bo/service-kit';

export const webhooksPersonalData: PersonalDataCatalogue = {
  service: 'webhooks',
  schema: 'webhooks',
  players: {},
  none: {
    ...KIT_TABLES_WITHOUT_PLAYERS,
    events: "events as sent to the operator, the controller (copies of the other services' data; docs/privacy.md)",
    deliveries: "an event's delivery to the operator",
    attempts: "a delivery's attempts",
    endpoints: "an operator's webhook endpoint",
    endpoint_slots: "an endpoint's delivery slots",
  },
};
