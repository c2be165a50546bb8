// The layer arrows of docs/architecture.md, checked by `npm run lint` (depcruise). Test files and
// test-support are exempt from the adapter rules (a test may drive any layer), not from the package ones.
const TESTS = '(\\.test\\.ts$|/test-support/)';
// HTTP helpers the REST, site, auth and MCP-over-HTTP adapters share (caller identity, CORS, JSON bodies,
// rate-limit headers, the core-error table, report access, the site layout). They are infrastructure of
// the HTTP server, not an adapter's operations; see docs/architecture.md.
const SHARED_HTTP =
  '^apps/server/src/(http/|rest/(caller|cors|json-body|rate-limit|core-errors)\\.ts$|site/(report-access|layout|pages|html-text|markdown-text)\\.ts$|auth/(session|same-origin|email-address)\\.ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-depends-on-nothing-of-ours',
      comment: 'packages/core is the measurement library: no other workspace, no Express, no MCP SDK.',
      severity: 'error',
      from: { path: '^packages/core/', pathNot: TESTS },
      to: { path: '^(packages/(simulator|mcp|stdio-bridge)|apps)/|node_modules/(express|@modelcontextprotocol)/' },
    },
    {
      name: 'core-tests-use-only-the-simulator',
      comment: "core's tests may start the provider simulator (a dev dependency), nothing else of ours.",
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^(packages/(mcp|stdio-bridge)|apps)/|node_modules/(express|@modelcontextprotocol)/' },
    },
    {
      name: 'simulator-stands-alone',
      comment: 'The provider simulator speaks vendor wire formats with Node built-ins only.',
      severity: 'error',
      from: { path: '^packages/simulator/' },
      to: { path: '^(packages/(core|mcp|stdio-bridge)|apps)/' },
    },
    {
      name: 'mcp-depends-on-core-only',
      comment: 'packages/mcp (the tools) knows core and the MCP SDK, not HTTP frameworks or the server.',
      severity: 'error',
      from: { path: '^packages/mcp/', pathNot: TESTS },
      to: { path: '^(packages/(simulator|stdio-bridge)|apps)/|node_modules/express/' },
    },
    {
      name: 'mcp-tests-use-only-the-simulator',
      severity: 'error',
      from: { path: '^packages/mcp/' },
      to: { path: '^(packages/stdio-bridge|apps)/|node_modules/express/' },
    },
    {
      name: 'bridge-depends-on-nothing-of-ours',
      comment: 'The stdio bridge is published alone: stdio <-> remote streamable HTTP, the MCP SDK only.',
      severity: 'error',
      from: { path: '^packages/stdio-bridge/' },
      to: { path: '^(packages/(core|simulator|mcp)|apps)/' },
    },
    {
      name: 'adapters-never-import-each-other',
      comment: 'REST, MCP, CLI and the site call core operations, never one another (shared HTTP helpers aside).',
      severity: 'error',
      from: { path: '^apps/server/src/(rest|mcp|cli|site|auth|discovery)/', pathNot: TESTS },
      to: {
        path: '^apps/server/src/(rest|mcp|cli|site|auth|discovery)/',
        // Known exception, kept until audit-token-routes is split: the site's report page shows the badge embed
        // snippet and checks ownership with REST's token-route helpers (docs/architecture.md).
        pathNot: [SHARED_HTTP, '^apps/server/src/$1/', '^apps/server/src/rest/audit-token-routes\\.ts$'],
      },
    },
    {
      name: 'cli-is-not-http',
      comment: 'The CLI runs core operations from a terminal: no Express routes, no HTTP helpers.',
      severity: 'error',
      from: { path: '^apps/server/src/cli/', pathNot: TESTS },
      // email-address.ts is the account email rule (a pure function) that `credits grant` shares with sign-in.
      to: { path: '^apps/server/src/(rest|mcp|site|auth|discovery|http)/|node_modules/express/', pathNot: '^apps/server/src/auth/email-address\\.ts$' },
    },
    {
      name: 'production-code-never-imports-tests',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { path: TESTS },
    },
    {
      name: 'no-circular-packages',
      comment: 'Workspaces import each other in one direction only.',
      severity: 'error',
      from: { path: '^(packages/[^/]+|apps/[^/]+)/' },
      to: { circular: true, path: '^(packages/[^/]+|apps/[^/]+)/', pathNot: '^$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.check.json' },
    // Workspace packages resolve to their sources, as vitest resolves them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['visibility-source', 'import', 'types', 'default'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
