import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { BRAND } from './src/brand';
import { formatPageTitle } from './src/lib/pageTitle';
import { webManifest } from './src/manifest';

const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:4000';

/**
 * Puts the brand into index.html (%BRAND_NAME%, %BRAND_TITLE%, %BRAND_DESCRIPTION%) and
 * serves / emits /manifest.webmanifest built from it, so a rebrand is one constant.
 */
function brand(): Plugin {
  const manifestJson = () => `${JSON.stringify(webManifest(), null, 2)}\n`;
  return {
    name: 'haven-brand',
    transformIndexHtml(html) {
      return html
        .replaceAll('%BRAND_NAME%', BRAND.name)
        .replaceAll('%BRAND_TITLE%', formatPageTitle())
        .replaceAll('%BRAND_DESCRIPTION%', BRAND.description);
    },
    configureServer(server) {
      server.middlewares.use('/manifest.webmanifest', (_req, res) => {
        res.setHeader('Content-Type', 'application/manifest+json');
        res.end(manifestJson());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'manifest.webmanifest', source: manifestJson() });
    },
  };
}

/**
 * Emits /app-shell.json, every bundle of the build (the areas' lazily loaded ones too), so the
 * service worker can keep the whole app for offline starts, not only what index.html names.
 */
function appShellList(): Plugin {
  return {
    name: 'haven-app-shell-list',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle)
        .filter((fileName) => /\.(js|css)$/.test(fileName))
        .map((fileName) => `/${fileName}`)
        .sort();
      this.emitFile({ type: 'asset', fileName: 'app-shell.json', source: `${JSON.stringify(files, null, 2)}\n` });
    },
  };
}

/**
 * Writes a brotli and a gzip twin (`.js.br`, `.js.gz`, `.css.br`, `.css.gz`) of every bundle, read back from disk so
 * each is byte-for-byte the file beside it; the gateway sends the best one a browser accepts (gateway/src/web.ts).
 * Compressed once here at the strongest settings, never per request.
 */
function precompress(): Plugin {
  return {
    name: 'haven-precompress',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    writeBundle(options, bundle) {
      const outDir = options.dir ?? 'dist';
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css)$/.test(fileName)) continue;
        const path = join(outDir, fileName);
        const content = readFileSync(path);
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig(({ mode, isSsrBuild }) => {
  // HAVEN_GATEWAY_URL from the environment (or a web/.env file) points the dev proxy elsewhere.
  const env = loadEnv(mode, '.', 'HAVEN_');
  const gateway = env.HAVEN_GATEWAY_URL || DEFAULT_GATEWAY_URL;
  const proxy = {
    '/graphql': { target: gateway, xfwd: true },
    '/api': { target: gateway, xfwd: true },
  };

  return {
    plugins: [react(), brand(), appShellList(), precompress()],
    server: { host: '127.0.0.1', port: 5173, strictPort: true, proxy },
    preview: { host: '127.0.0.1', port: 4173, strictPort: true, proxy },
    build: isSsrBuild
      ? // The prerender step (src/prerender/entry.tsx), run by Node once after the browser's build; see package.json.
        {
          outDir: 'dist-prerender',
          emptyOutDir: true,
          copyPublicDir: false,
          rollupOptions: {
            output: {
              // The app's code apart from the step's own: a page bundle loaded while the step's top-level await is
              // pending must import nothing from the entry's chunk, or it waits for that await for ever.
              manualChunks: (id: string) => (id.endsWith('/src/prerender/entry.tsx') ? undefined : 'app'),
            },
          },
        }
      : {
          outDir: 'dist',
          emptyOutDir: true,
          sourcemap: true,
          // Which files each module's chunk needs: the prerender step links a page's stylesheets and scripts by it.
          manifest: true,
          // Every browser Haven supports preloads modules itself; the polyfill would only add to the first page.
          modulePreload: { polyfill: false },
          rollupOptions: {
            output: {
              // Libraries change less often than the app: separate files cache better. Only React and the router
              // (every page's) and Apollo and Stripe (large, and only some pages') get a file of their own; any
              // other library goes with the bundle of the pages that use it, so a public page loads no library
              // only the signed-in pages need (the first page's script budget, src/prerender/budget.ts).
              manualChunks(id: string) {
                if (!id.includes('node_modules')) return undefined;
                if (/node_modules\/(@apollo|graphql|graphql-tag|rxjs|@wry|optimism)\//.test(id)) return 'apollo';
                // Stripe's client only with the card form that uses it, never on other pages.
                if (/node_modules\/@stripe\//.test(id)) return 'stripe';
                if (/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|cookie)\//.test(id))
                  return 'react';
                return undefined;
              },
            },
          },
        },
  };
});
