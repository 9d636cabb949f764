import { effectiveGdprConfig, type GdprConfig } from '../domain/gdpr-config';
import { deletionResolvers } from './deletion';
import type { Resolvers } from './types.generated';

export function complianceResolvers(
  settings: GdprConfig,
  deletion: Parameters<typeof deletionResolvers>[0],
): Resolvers {
  const config = effectiveGdprConfig(settings);
  const deletions = deletionResolvers(deletion);
  return {
    Query: {
      gdprConfig: () => config,
      ...deletions.Query,
    },
    Mutation: { ...deletions.Mutation },
  };
}
