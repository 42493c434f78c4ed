import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './packages/core/src/platform/db/schema.ts',
  out: './drizzle',
});
