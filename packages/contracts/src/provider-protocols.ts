// The protocols a provider may speak (docs/connectors.md): a module of its own so that providers.ts
// (a provider's `protocol`) and connectors.ts (the connectors, which use providers.ts' wallet
// schemas) both import it without importing each other.
import { Type } from '@sinclair/typebox';

/**
 * The protocols a provider may speak. `native`: /provider/v1 (docs/providers.md). Each other name
 * is a connector: a room in services/gateway/src/connectors/<name>/ and a page in docs/.
 */
export const PROVIDER_PROTOCOLS = ['native', 'hub88', 'evolution', 'betsy'] as const;
export type ProviderProtocol = (typeof PROVIDER_PROTOCOLS)[number];
export const ProviderProtocolSchema = Type.Union(PROVIDER_PROTOCOLS.map((p) => Type.Literal(p)));
/** The protocols with a connector (all but native). */
export type ConnectorProtocol = Exclude<ProviderProtocol, 'native'>;
