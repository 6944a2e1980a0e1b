// The customer app's build: React + Vite, served by the server at `/` (SPA fallback to index.html).
// In development the API is proxied to the local server so that the app always calls /ipor-api.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

declare const process: { env: Record<string, string | undefined> };

// BOURSE_API_URL points the proxy elsewhere (e.g. a second server on another port).
const apiTarget = process.env.BOURSE_API_URL ?? 'http://127.0.0.1:3000';
const apiProxy = {
  '/ipor-api': { target: apiTarget, changeOrigin: false },
};

export default defineConfig({
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 600,
  },
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
});
