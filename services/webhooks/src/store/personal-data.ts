// What the webhooks service holds about a player (issue #69; docs/privacy.md): the events sent to the
// operator (the controller) carry the player's id and what each event says; they are copies of what the
// other services hold, kept as sent for redelivery and its proof. Not exported (the operator received
// each), not anonymised (a signed body cannot change): see docs/privacy.md, "What is left".
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
