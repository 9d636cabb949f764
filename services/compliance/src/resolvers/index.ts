import { effectiveGdprConfig, type GdprConfig } from '../domain/gdpr-config';
import type { Resolvers } from './types.generated';

export function complianceResolvers(settings: GdprConfig): Resolvers {
  const config = effectiveGdprConfig(settings);
  return {
    Query: {
      gdprConfig: () => config,
    },
  };
}
