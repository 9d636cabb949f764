import { effectiveGdprConfig } from '../src/domain/gdpr-config';

describe('effectiveGdprConfig', () => {
  it('shows the cookie banner and enhanced consent only when switched on with GDPR features', () => {
    expect(effectiveGdprConfig({ gdprEnabled: true, cookieBannerEnabled: true, enhancedConsentEnabled: true })).toEqual(
      {
        gdprEnabled: true,
        cookieBannerEnabled: true,
        enhancedConsentEnabled: true,
      },
    );
  });

  it('keeps each switch independent while GDPR features are on', () => {
    expect(
      effectiveGdprConfig({ gdprEnabled: true, cookieBannerEnabled: true, enhancedConsentEnabled: false }),
    ).toEqual({
      gdprEnabled: true,
      cookieBannerEnabled: true,
      enhancedConsentEnabled: false,
    });
    expect(
      effectiveGdprConfig({ gdprEnabled: true, cookieBannerEnabled: false, enhancedConsentEnabled: true }),
    ).toEqual({
      gdprEnabled: true,
      cookieBannerEnabled: false,
      enhancedConsentEnabled: true,
    });
  });

  it('turns the banner and enhanced consent off when GDPR features are off, whatever their own setting', () => {
    for (const cookieBannerEnabled of [true, false]) {
      for (const enhancedConsentEnabled of [true, false]) {
        expect(effectiveGdprConfig({ gdprEnabled: false, cookieBannerEnabled, enhancedConsentEnabled })).toEqual({
          gdprEnabled: false,
          cookieBannerEnabled: false,
          enhancedConsentEnabled: false,
        });
      }
    }
  });

  it('does not change the settings it was given', () => {
    const settings = { gdprEnabled: false, cookieBannerEnabled: true, enhancedConsentEnabled: true };
    effectiveGdprConfig(settings);
    expect(settings).toEqual({ gdprEnabled: false, cookieBannerEnabled: true, enhancedConsentEnabled: true });
  });
});
