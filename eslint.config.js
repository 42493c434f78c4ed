// ESLint flat config (typescript-eslint's recommended rules for every workspace, plus the few
// that keep async code honest). `npm run lint` runs it; CI runs it through scripts/test.sh.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'models/**', 'data/**', 'drizzle/**', '**/*.cjs', 'scripts/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // `_name` marks a parameter or binding kept for its position or shape.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  // The portal's script runs in the browser; .mjs helpers run in Node.
  { files: ['apps/api/src/portal/static/**/*.js'], languageOptions: { globals: globals.browser, sourceType: 'script' } },
  { files: ['**/*.mjs', '*.js'], languageOptions: { globals: globals.node } },
);
