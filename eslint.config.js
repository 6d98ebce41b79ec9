import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Who may import whom (the table in README.md, "Source layout"). Each layer lists the source folders it
 * must not reach; `node:` builtins, electron and DOM access are restricted where the table says so.
 * `node-common` holds Node-only helpers that both core and render-node use (file locks, zip entries);
 * `blend` reads .blend files, traces their dependencies and packs bundles, without Blender.
 */
const LAYERS = ['shared', 'node-common', 'blend', 'core', 'render-node', 'host', 'web', 'cli', 'main', 'preload', 'renderer'];
const ALLOWED = {
  shared: [],
  'node-common': ['shared'],
  blend: ['shared', 'node-common'],
  core: ['shared', 'node-common', 'blend'],
  'render-node': ['shared', 'node-common', 'blend'],
  host: ['shared', 'node-common', 'blend', 'core', 'render-node'],
  web: ['shared', 'node-common', 'blend', 'core', 'render-node', 'host'],
  cli: ['shared', 'node-common', 'blend', 'core', 'render-node', 'host', 'web'],
  main: ['shared', 'node-common', 'blend', 'core', 'render-node', 'host'],
  preload: ['shared'],
  renderer: ['shared'],
};
const NODE_FREE = new Set(['shared', 'renderer', 'preload']);
const ELECTRON_OK = new Set(['main', 'preload']);

function boundaryRules(layer) {
  const forbidden = LAYERS.filter((l) => l !== layer && !ALLOWED[layer].includes(l));
  const patterns = forbidden.map((l) => ({
    group: [`**/${l}/**`, `**/${l}`, `../${l}/**`, `../../${l}/**`],
    message: `src/${layer} may not import src/${l} (see README.md: Source layout).`,
  }));
  // The sandboxed preload is bundled alone and may load nothing but electron: it names the few shared
  // files it needs instead of a room's index, which would pull in the contract's schemas (zod).
  const reachable = layer === 'preload' ? [] : ALLOWED[layer].filter((l) => l !== layer);
  if (reachable.length > 0) {
    patterns.push({
      group: reachable.map((l) => `**/${l}/*/*`),
      message: `Import another layer through a room's index (src/<layer>/<room>) or a file at the layer's root, never a file inside a room (see README.md: Source layout).`,
    });
  }
  if (NODE_FREE.has(layer) && layer !== 'preload') {
    patterns.push({ group: ['node:*'], message: `src/${layer} runs without Node.js built-ins.` });
  }
  const paths = [];
  if (!ELECTRON_OK.has(layer)) paths.push({ name: 'electron', message: `src/${layer} may not use electron.` });
  return { 'no-restricted-imports': ['error', { patterns, paths }] };
}

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'bench/results/**', 'test-results/**', '.toolchain/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  { files: ['test/**/*.ts', 'bench/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // A function a newcomer reads at once: composition functions split by concern, components into parts.
  { files: ['src/**/*.{ts,tsx}'], rules: { 'max-lines-per-function': ['error', { max: 80 }] } },
  ...LAYERS.map((layer) => ({ files: [`src/${layer}/**/*.{ts,tsx}`], rules: boundaryRules(layer) })),
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/ipc/register-contract.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='ipcMain'][property.name=/^(handle|handleOnce|on|once)$/]",
          message: 'Register IPC only through src/main/ipc/register-contract.ts, which checks the sender and validates the payload.',
        },
      ],
    },
  },
);
