import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['*.fixture.ts'],
    globalSetup: ['../skip-list.ts'],
  },
});
