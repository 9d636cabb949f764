import { BRAND } from './brand';
import { webManifest } from './manifest';

describe('webManifest', () => {
  it('names the app after the brand and starts at /', () => {
    const manifest = webManifest();
    expect(manifest.short_name).toBe(BRAND.name);
    expect(manifest.name).toBe('Haven - Mental Health Support');
    expect(manifest.start_url).toBe('/');
    expect(manifest.display).toBe('standalone');
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it('has an SVG icon for any purpose and a maskable one', () => {
    const icons = webManifest().icons;
    expect(icons).toContainEqual(expect.objectContaining({ src: '/icon.svg', type: 'image/svg+xml', purpose: 'any' }));
    expect(icons).toContainEqual(expect.objectContaining({ purpose: 'maskable' }));
  });

  it('has the PNG sizes install prompts ask for (192 and 512), plain and maskable', () => {
    const pngs = webManifest().icons.filter((icon) => icon.type === 'image/png');
    for (const purpose of ['any', 'maskable']) {
      expect(pngs.filter((icon) => icon.purpose === purpose).map((icon) => icon.sizes)).toEqual(['192x192', '512x512']);
    }
  });
});
