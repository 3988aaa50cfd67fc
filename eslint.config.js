import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/** typescript-eslint's recommended rules over every TypeScript file of the workspace. */
export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/build/**', '**/.svc/**', '**/.bench/**', 'coverage/**'] },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names mark an argument a signature needs and the body does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read answers whose shape is what they assert: loose JSON types keep them short.
    files: ['**/test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
