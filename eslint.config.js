// ESLint for the whole repository. Library and example sources are linted with type information
// (the promise rules need it: a floating promise in a crawler hook is a lost error or a skipped
// check); tests and scripts are linted without it, which keeps `npm test` fast.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

const SOURCES = ['packages/*/src/**/*.ts', 'examples/*/src/**/*.ts'];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/storage/**',
      '**/.heed-cache/**',
      'test/fixtures/**',
      'test/compat/.cache/**',
      // The docs' code blocks, written by scripts/snippets.mjs for the typecheck: as the docs have them.
      'test/snippets/extracted/**',
      // The same blocks compiled and run by test/snippets/run.test.ts, while the lint may run beside it.
      '**/.snippets/**',
      '**/*.d.ts',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // robots.txt bodies, headers and CLI output are hostile text: matching control characters is the point.
      'no-control-regex': 'off',
    },
  },
  {
    files: SOURCES,
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // Stores implement an async interface; an in-memory store answers without awaiting anything.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly' },
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        performance: 'readonly',
        global: 'readonly',
        globalThis: 'readonly',
        queueMicrotask: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
      },
    },
  },
);
