export interface GdprConfig {
  gdprEnabled: boolean;
  cookieBannerEnabled: boolean;
  enhancedConsentEnabled: boolean;
}

/** The banner only makes sense where GDPR features are on at all. */
export function effectiveGdprConfig(settings: GdprConfig): GdprConfig {
  return {
    gdprEnabled: settings.gdprEnabled,
    cookieBannerEnabled: settings.gdprEnabled && settings.cookieBannerEnabled,
    enhancedConsentEnabled: settings.gdprEnabled && settings.enhancedConsentEnabled,
  };
}
