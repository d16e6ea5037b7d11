import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['build/', 'node_modules/', '.data/', 'scratch/', 'coverage/', 'test-results/', 'bench/out/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/set-state-in-effect': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/adapters/**'], message: 'modules/ and app/ depend on ports, never on adapters.' }] },
      ],
    },
  },
  {
    // Only the composition root, the CLI, tests and benchmarks may wire adapters in.
    files: ['server/**', 'cli/**', 'tests/**', 'bench/**', 'adapters/**', '**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Request bodies are read through app/utils/input.server.ts (Content-Type, parse errors, text the
    // database cannot store), never straight off the Request (issue 9).
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/utils/input.server.ts', 'app/utils/api.server.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name=/^(formData|json|text|arrayBuffer|blob)$/][callee.object.name='request']",
          message: 'Read the body with readForm/readJson/readJsonObject/readText (app/utils/input.server.ts, api.server.ts).',
        },
        {
          selector: "CallExpression[callee.property.name=/^(formData|json|text|arrayBuffer|blob)$/] > MemberExpression.callee > CallExpression.object[callee.property.name='clone']",
          message: 'Read the body with readForm (app/utils/input.server.ts).',
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
