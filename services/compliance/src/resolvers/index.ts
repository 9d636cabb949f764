import { effectiveGdprConfig, type GdprConfig } from '../domain/gdpr-config';
import { consentResolvers, type ConsentDeps } from './consent';
import type { Resolvers } from './types.generated';

export function complianceResolvers(settings: GdprConfig, consent: ConsentDeps): Resolvers {
  const config = effectiveGdprConfig(settings);
  const cookies = consentResolvers(consent);
  return {
    Query: {
      gdprConfig: () => config,
      ...cookies.Query,
    },
    Mutation: { ...cookies.Mutation },
    User: { ...cookies.User },
  };
}
