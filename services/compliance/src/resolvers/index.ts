import type { RequestContext } from '@haven/platform';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper';
import { effectiveGdprConfig, type GdprConfig } from '../domain/gdpr-config';

export function complianceResolvers(settings: GdprConfig): GraphQLResolverMap<RequestContext> {
  const config = effectiveGdprConfig(settings);
  return {
    Query: {
      gdprConfig: () => config,
    },
  };
}
