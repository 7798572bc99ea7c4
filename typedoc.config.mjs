// The API reference of every published package, one site: `npm run docs` writes docs/api/ (gitignored, built on
// demand; `npm test` builds it too, so a missing doc or example fails the suite). Every export has documentation and
// an example (scripts/typedoc-examples.mjs); warnings are errors.
import { OptionDefaults } from 'typedoc';

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: 'basekit',
  // The engine first: the packages that re-export its types then link to them.
  entryPoints: [
    'packages/engine/src/index.ts',
    'packages/engine/src/server.ts',
    'packages/sdk/src/index.ts',
    'packages/sdk/src/core/index.ts',
    'packages/sdk/src/auth/index.ts',
    'packages/sdk/src/db/index.ts',
    'packages/sdk/src/files/index.ts',
    'packages/sdk/src/transcoder/index.ts',
    'packages/sdk/src/leaderboards/index.ts',
    'packages/sdk/src/admin/index.ts',
    'packages/msw/src/index.ts',
    'mock-server/src/index.ts',
    'mock-server/src/testing.ts',
  ],
  // The packages' sources with their cross-package imports resolved to sources too (`@basekit/source`), so one
  // package's page links to another's types. `npm run typecheck` checks them; this run only documents.
  tsconfig: 'tsconfig.tests.json',
  skipErrorChecking: true,
  plugin: ['./scripts/typedoc-examples.mjs'],
  out: 'docs/api',
  readme: 'none',
  disableSources: true,
  excludePrivate: true,
  // The generated types carry the contract's descriptions in openapi-typescript's tags.
  blockTags: [...OptionDefaults.blockTags, '@description', '@constant', '@enum'],
  // Every export is documented; their members where they need a word.
  requiredToBeDocumented: ['Class', 'Function', 'Variable', 'TypeAlias', 'Interface', 'Method', 'Accessor'],
  packagesRequiringDocumentation: ['@basekit/sdk', '@basekit/msw', '@basekit/mock-server', '@basekit/engine'],
  validation: { notExported: false, invalidLink: true, notDocumented: true },
  treatWarningsAsErrors: true,
};
