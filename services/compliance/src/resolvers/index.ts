import { effectiveGdprConfig, type GdprConfig } from '../domain/gdpr-config';
import { consentResolvers, type ConsentDeps } from './consent';
import { deletionResolvers } from './deletion';
import type { Resolvers } from './types.generated';

export function complianceResolvers(
  settings: GdprConfig,
  deletion: Parameters<typeof deletionResolvers>[0],
  consent: ConsentDeps,
): Resolvers {
  const config = effectiveGdprConfig(settings);
  const deletions = deletionResolvers(deletion);
  const cookies = consentResolvers(consent);
  return {
    Query: {
      gdprConfig: () => config,
      ...deletions.Query,
      ...cookies.Query,
    },
    Mutation: { ...deletions.Mutation, ...cookies.Mutation },
    User: { ...cookies.User },
  };
}
