import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'proto/gen/**', '.data/**', '.tools/**', '.run/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Imports flow one way, shared code → features → app: a feature never imports another one
  // (code two features need belongs in components/ or lib/). A file n folders deep in its feature
  // may go up n − 1 folders and stay inside it; one more `../` and a folder name is another feature.
  ...[1, 2, 3].map((depth) => ({
    files: [`web/src/features/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: `^(\\.\\./){${depth}}(?!\\.\\.)[^/]+/`, message: 'Features do not import each other: move what both need to components/ or lib/.' },
            { regex: '/features/', message: 'Features do not import each other: move what both need to components/ or lib/.' },
          ],
        },
      ],
    },
  })),
  {
    // Scripts and benchmarks talk to a human on the terminal.
    files: ['bench/**', 'deploy/**', 'scripts/**', '**/scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
