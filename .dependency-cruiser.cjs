// The floors of the house and who may import whom (docs/ARCHITECTURE.md, "Floors and dependency
// rules"), checked by `npm test` (its "dependency rules" step: `npx depcruise apps packages`).
// Test files, benchmarks and the browser tests may reach anywhere; production code may not.

const TEST = '\\.test\\.tsx?$|/testing[^/]*\\.ts$|\\.fixture\\.ts$';

/** A package may import only the packages named here (and npm libraries). */
const floors = {
  money: [],
  engine: ['money'],
  market: ['money'],
  contract: ['money'],
  db: [],
  testkit: ['money', 'engine', 'market'],
};

const forbidden = [
  ...Object.entries(floors).map(([name, allowed]) => ({
    name: `floor-${name}`,
    comment: `packages/${name} may import ${allowed.length ? allowed.join(', ') : 'no other workspace package'}`,
    severity: 'error',
    from: { path: `^packages/${name}/`, pathNot: TEST },
    to: {
      path: '^(packages|apps)/',
      pathNot: [`^packages/(${[name, ...allowed].join('|')})/`],
    },
  })),
  {
    name: 'pure-core',
    comment:
      'money, engine and market are deterministic: no Node built-ins (file system, network, clock, threads); time, ids and seeds come in as arguments',
    severity: 'error',
    from: { path: '^packages/(money|engine|market)/', pathNot: TEST },
    to: { dependencyTypes: ['core'] },
  },
  {
    name: 'packages-import-no-app',
    comment: 'packages never import from apps/',
    severity: 'error',
    from: { path: '^packages/' },
    to: { path: '^apps/' },
  },
  {
    name: 'apps-import-no-other-app',
    comment: 'an app never imports from another app; shared code lives in packages/',
    severity: 'error',
    from: { path: '^apps/([^/]+)/' },
    to: { path: '^apps/', pathNot: '^apps/$1/' },
  },
  {
    name: 'front-ends-import-contract-and-money',
    comment: 'the customer app and the console import only packages/contract and packages/money',
    severity: 'error',
    from: { path: '^apps/(web|admin)/' },
    to: { path: '^packages/', pathNot: '^packages/(contract|money)/' },
  },
  {
    name: 'front-ends-no-node',
    comment: 'browser code imports no Node built-ins',
    severity: 'error',
    from: { path: '^apps/(web|admin)/src/', pathNot: TEST },
    to: { dependencyTypes: ['core'] },
  },
  {
    name: 'server-features-through-ports',
    comment:
      'the engine host and the HTTP layer do not reach into adapters; features receive adapters through their ports',
    severity: 'error',
    from: { path: '^apps/server/src/(engine-host|http)/', pathNot: TEST },
    to: { path: '^apps/server/src/adapters/' },
  },
  {
    name: 'votes-read-by-nothing-that-prices',
    comment:
      'the stock sentiment vote is opinion shown to customers: only the app wiring imports it, so nothing that sets prices (market simulator, venue, engine) can read it (decision 0037)',
    severity: 'error',
    from: {
      path: '^(apps|packages)/',
      pathNot: [TEST, '^apps/server/src/app\\.ts$', '^apps/server/src/features/votes/'],
    },
    to: { path: '^apps/server/src/features/votes/' },
  },
];

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|test-results)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    preserveSymlinks: false,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
