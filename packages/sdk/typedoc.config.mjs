// API reference: `npm run docs` writes docs/api/ (gitignored, built on demand).
import { OptionDefaults } from 'typedoc';

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: '@basekit/sdk',
  entryPoints: [
    'src/index.ts',
    'src/core/index.ts',
    'src/auth/index.ts',
    'src/db/index.ts',
    'src/files/index.ts',
    'src/transcoder/index.ts',
    'src/leaderboards/index.ts',
    'src/admin/index.ts',
  ],
  tsconfig: 'tsconfig.json',
  out: '../../docs/api',
  readme: 'none',
  disableSources: true,
  excludePrivate: true,
  // The generated types carry the contract's descriptions in openapi-typescript's tags.
  blockTags: [...OptionDefaults.blockTags, '@description', '@constant', '@enum'],
  // Every export is documented; their members where they need a word.
  requiredToBeDocumented: ['Class', 'Function', 'Variable', 'TypeAlias', 'Interface', 'Method', 'Accessor'],
  validation: { notExported: false, invalidLink: true, notDocumented: true },
  // Generated from the contract (described there, member by member).
  intentionallyNotDocumented: ['index.paths', 'index.components', 'index.operations', 'index.webhooks'],
  treatWarningsAsErrors: true,
};
