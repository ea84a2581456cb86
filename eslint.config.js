import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

// Read from the folder, so a feature added tomorrow is fenced in without editing this file.
const features = fs
  .readdirSync('src/web/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * One-way imports (ARCHITECTURE §4, decision 0008): common ← server, common ← web; inside
 * web, shared code (components, lib) ← features ← app. A feature never imports another
 * feature: what two features share moves to components, lib or common, and pages that
 * combine features are composed in app/.
 */
const importZones = [
  ...features.map((feature) => ({
    target: `./src/web/features/${feature}`,
    from: './src/web/features',
    except: [`./${feature}`],
    message:
      'A feature imports only shared code (components, lib, common), never another feature; compose features in src/web/app.',
  })),
  {
    target: './src/web/features',
    from: './src/web/app',
    message: 'Features do not import the app shell; the app imports features.',
  },
  {
    target: ['./src/web/components', './src/web/lib'],
    from: ['./src/web/features', './src/web/app'],
    message: 'Shared web code (components, lib) imports no feature and not the app.',
  },
  {
    target: './src/common',
    from: ['./src/web', './src/server'],
    message: 'src/common is imported by web and server, and imports neither.',
  },
  {
    target: './src/server',
    from: './src/web',
    message: 'The server never imports the web app; share through src/common.',
  },
  {
    target: './src/web',
    from: './src/server',
    message: 'The web app never imports server code; share through src/common.',
  },
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', '.data', '.test-data', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: importZones }] },
  },
  {
    // Configuration is read and validated in one module; everything else receives it.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings from src/server/config.ts' },
      ],
    },
  },
);
