// Lint with type information: the rules that matter most here need the compiler's view of every
// promise (a Slack listener or an engine step that forgets `await` loses a write or an error).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = {
  process: 'readonly',
  console: 'readonly',
  URL: 'readonly',
  module: 'writable',
  require: 'readonly',
  __dirname: 'readonly',
};

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'coverage/**', 'test-artifacts/**', 'test/fixtures/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json', './tsconfig.page.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // One import line per module (and one more for its types): merges had left a module imported in pieces.
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
      // An `async` method with no `await` is how a port implementation turns a throw into a rejection.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        // A leading underscore names what is left out on purpose (a destructured field dropped, an unused parameter).
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // A `let` read by a closure before its one assignment cannot be a `const`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Passing on a caught value unchanged is not inventing a non-Error rejection.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    files: ['src/stand-ins/**/*.ts', 'src/stand-ins/**/*.tsx', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Stand-ins and tests print Slack call arguments typed `unknown`; `String()` of them is the intended fallback.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests read JSON bodies and recorded Slack calls as `any` on purpose; their assertions check the shape.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs'],
    extends: [js.configs.recommended, tseslint.configs.disableTypeChecked],
    languageOptions: { globals: nodeGlobals },
  },
);
