import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The web app builds into dist/, which `svc serve` serves at `/`. Files under dist/assets/ are
 * named by a hash of their content, so the gateway caches them for a year.
 * `npm run dev -w packages/web` proxies the API to a `svc serve` on 127.0.0.1:8080.
 */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    proxy: Object.fromEntries(
      ['/api', '/oauth', '/webhooks', '/health'].map((path) => [path, 'http://127.0.0.1:8080']),
    ),
  },
});
