import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Native and vendor libraries live in adapters/ (behind ports) and server/ (the composition root, the
// edge). A module that still needs one is named in VENDOR_ALLOW_LIST below, with the reason (ADR 034).
const VENDOR_LIBRARIES = [
  '@napi-rs/canvas',
  'sharp',
  'sharp-phash',
  'file-type',
  '@node-rs/argon2',
  'qrcode',
  'stripe',
  'square',
  'tesseract.js',
  'openai',
  'nodemailer',
  'pg-boss',
  'pg',
];
const VENDOR_ALLOW_LIST = {
  // Re-encodes every uploaded image (screenshots, logos) and sniffs its real type from magic bytes; the
  // upload limits are checked on what sharp decodes; sharp-phash hashes screenshots for near-copies (ADR 050).
  // Moving it behind an ImageCodec port is a later step.
  'modules/uploads/images.ts': ['sharp', 'file-type', 'sharp-phash'],
  // Hashes and verifies owner passwords (argon2id). A PasswordHasher port is a later step.
  'modules/accounts/passwords.ts': ['@node-rs/argon2'],
  // Draws the printable flyer (canvas, bundled DejaVu fonts). A FlyerRenderer port is a later step.
  'modules/sharing/flyer.ts': ['@napi-rs/canvas'],
  // The flyer's fonts and text fitting (split from flyer.ts, issue 28 item 4): the same canvas.
  'modules/sharing/flyer-text.ts': ['@napi-rs/canvas'],
  // Encodes the survey link as a QR matrix for the PNG/SVG downloads and the flyer.
  'modules/sharing/qr.ts': ['qrcode'],
};
const el = (...types) => ({ element: { type: types } });
// translator.ts: modules/i18n's i18next translator, a face of its own so the survey island can load it lazily (ADR 084).
const FACE = { element: { type: 'module', fileInternalPath: ['index.ts', 'server.ts', 'forms.ts', 'translator.ts'] } };
// The file's own module: any of its files (issue 28 item 2, ADR 091).
const OWN_MODULE = { element: { type: 'module', captured: { module: '{{ from.element.captured.module }}' } } };
// modules/shared, the shared kernel (ADR 091): small files (ids, text folding, domain errors, the logger, the ORM's
// QueryBuilder, ...) every module imports directly, each file its own face; it imports no other module.
const SHARED_KERNEL = { element: { type: 'module', captured: { module: 'shared' } } };
const MODULE_FACE_MESSAGE =
  "Another module is imported through one of its faces (index.ts, server.ts, forms.ts, translator.ts), never file by file; export what you need from its face (modules/shared, the kernel, excepted; ADR 091).";
const SHARED_KERNEL_MESSAGE = 'modules/shared is the shared kernel: every module imports it, so it imports no other module (ADR 091).';
const VENDOR_MESSAGE =
  'A vendor/native library belongs in adapters/ (behind a port) or server/; a module that still needs one is named in VENDOR_ALLOW_LIST in eslint.config.js (ADR 034).';
/** The boundaries/dependencies rule; `allowedVendors` are the libraries the linted file may still import. */
const boundariesRule = (allowedVendors = []) => [
  'error',
  {
    default: 'disallow',
    checkAllOrigins: true,
    policies: [
      // Packages and Node built-ins are allowed everywhere except the vendor list below.
      { allow: { to: { module: { origin: ['external', 'core'] } } } },
      { from: el('app'), allow: { to: [el('app'), FACE] } },
      // The route context's type comes from the composition root.
      { from: el('app'), allow: { to: el('server'), dependency: { kind: 'type' } } },
      // The CLI boots the composition root and reads the validated config.
      { from: el('cli'), allow: { to: [el('cli', 'server'), FACE] } },
      { from: el('server'), allow: { to: [el('server', 'adapter', 'app'), FACE] } },
      { from: el('adapter'), allow: { to: [el('adapter'), FACE] } },
      // Inside modules/: a module's own files, other modules' faces, and the shared kernel (issue 28 item 2, ADR 091).
      { from: el('module'), disallow: { to: el('module') }, message: MODULE_FACE_MESSAGE },
      { from: el('module'), allow: { to: [OWN_MODULE, FACE, SHARED_KERNEL] } },
      { from: SHARED_KERNEL, disallow: { to: { element: { type: 'module', captured: { module: '!shared' } } } }, message: SHARED_KERNEL_MESSAGE },
      { from: el('script'), allow: { to: el('script') } },
      {
        from: el('app', 'cli', 'module', 'script'),
        disallow: { to: { module: { origin: 'external', source: VENDOR_LIBRARIES.filter((name) => !allowedVendors.includes(name)) } } },
        message: VENDOR_MESSAGE,
      },
    ],
  },
];

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
    // Architecture boundaries (issue 11, ADR 034). Each folder of modules/ is a module whose public face
    // is its index.ts (and, where index.ts must stay browser-safe, a server-only server.ts). app/, cli/
    // and server/ import modules only through a face; adapters import faces for port types; modules
    // import other modules through faces too, modules/shared (the kernel) excepted (ADR 091), and
    // never import app/, cli/, server/ or adapters/. Tests and benchmarks are outside the rule.
    files: ['app/**/*.{ts,tsx}', 'cli/**/*.ts', 'server/**/*.ts', 'adapters/**/*.ts', 'modules/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/include': ['app/**', 'cli/**', 'server/**', 'adapters/**', 'modules/**', 'scripts/**'],
      // Resolves `#app/…` (package.json "imports", tsconfig paths; ADR 094) to its file, so that the rule
      // sees an app/ file there and not an external package (the default node resolver does not read "imports").
      'import/resolver': { typescript: { project: `${import.meta.dirname}/tsconfig.json` } },
      'boundaries/elements': [
        { type: 'module', pattern: 'modules/*', partialMatch: false, capture: ['module'] },
        { type: 'app', pattern: 'app', partialMatch: false },
        { type: 'cli', pattern: 'cli', partialMatch: false },
        { type: 'server', pattern: 'server', partialMatch: false },
        { type: 'adapter', pattern: 'adapters', partialMatch: false },
        { type: 'script', pattern: 'scripts', partialMatch: false },
      ],
    },
    rules: { 'boundaries/dependencies': boundariesRule() },
  },
  {
    // No import cycles in the product's code (issue 28 item 5): a cycle makes the order modules load
    // in matter, and two files that need each other are one room. Type-only imports are not followed
    // by the rule (they vanish at run time); server/root.ts keeps the root's type out of the way.
    files: ['app/**/*.{ts,tsx}', 'cli/**/*.ts', 'server/**/*.ts', 'adapters/**/*.ts', 'modules/**/*.ts', 'migrations/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
      // Dependencies are parsed as TypeScript too (else a .ts file's imports are silently not followed).
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  ...Object.entries(VENDOR_ALLOW_LIST).map(([file, allowed]) => ({
    files: [file],
    rules: { 'boundaries/dependencies': boundariesRule(allowed) },
  })),
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
