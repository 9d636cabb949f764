import { readFileSync } from 'node:fs';
import { parse, type DocumentNode } from 'graphql';

/**
 * The directives of Haven's own that every subgraph schema may use, declared once here and put before each
 * service's `schema.graphql` wherever a schema is read: the service itself, the supergraph's composition and
 * codegen. A service's file keeps its own federation `@link` (which must import `@composeDirective`).
 */
export const havenDirectivesSdl = `
extend schema
  @link(url: "https://haven.invalid/rate-limit/v1.0", import: ["@rateLimit"])
  @composeDirective(name: "@rateLimit")

"""
How often a root field may run, declared by every mutation: its class's numbers (RATE_LIMIT_<CLASS>_MAX per
RATE_LIMIT_<CLASS>_WINDOW_MS; SIGN_IN's are RATE_LIMIT_AUTH_*), counted on every spelling of the operation
(aliases, fragments and variables resolved). SIGN_IN: per client address, counted by the gateway and this
service. MAIL: as SIGN_IN, and per recipient by this service (\`recipient\`: the argument holding the address
mailed, e.g. "input.email"; without one, the signed-in account). COSTLY and ORDINARY: per account (signed out:
per client) by this service.
"""
directive @rateLimit(class: String!, recipient: String) on FIELD_DEFINITION

"""
For Haven's services only: refused unless the caller presents the service credential (SERVICE_SECRET), which the
gateway never holds, whatever session or gateway secret comes with it. Always beside @inaccessible, so the field
stays out of the public supergraph.
"""
directive @internal on FIELD_DEFINITION
`;

/** A service's schema as its subgraph serves it: Haven's directives, then the service's `schema.graphql`. */
export function readSubgraphSchema(path: string): DocumentNode {
  return parse(`${havenDirectivesSdl}\n${readFileSync(path, 'utf8')}`);
}
