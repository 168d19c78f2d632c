// Lint (part of `npm test`): TypeScript's recommended rules, React's rules of hooks, and the layers
// of README "Layout" as import rules: web never imports the server, common imports nothing of
// ours, the layers under server/modules never import a module, and no module reads another
// module's repository (it asks that module's service).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const restrict = (...patterns) => ['error', { patterns }];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench-results/**', 'lighthouse-results/**', 'test-results/**', 'playwright-report/**', '.bench-cache/**', '.prof/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // Names starting with _ are deliberately unused (destructuring a field away).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // The text checks (common/schemas/text.ts and their tests) match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // Migrations take Kysely<any> on purpose: they must not depend on today's schema type (Kysely's advice).
    files: ['server/db/migrations/**/*.ts', 'server/db/epoch-triggers.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrict({ group: ['**/server/**', '**/scripts/**'], message: 'The web app talks to the server over HTTP only (README "Layout").' }),
    },
  },
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict({ group: ['**/server/**', '**/web/**', '**/scripts/**'], message: 'common/ is shared by server and web and imports neither.' }),
    },
  },
  {
    files: ['server/db/**/*.ts', 'server/auth/**/*.ts', 'server/access/**/*.ts', 'server/http/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict({ group: ['**/modules/**'], message: 'Layers point down: db, auth, access and http never import a feature module.' }),
    },
  },
  {
    files: ['server/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict({ group: ['../*/repository'], message: "A module asks another module's service, never its repository." }),
    },
  },
);
