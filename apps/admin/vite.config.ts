// The staff console is served by the API server under /admin (with an SPA fallback), so every asset
// URL is built against that base. In development the API is proxied to the local server.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5174,
    proxy: {
      '/ipor-api': { target: 'http://127.0.0.1:3000', changeOrigin: true },
    },
  },
  preview: {
    port: 4174,
    proxy: {
      '/ipor-api': { target: 'http://127.0.0.1:3000', changeOrigin: true },
    },
  },
});
