// The seeded world's fixed facts: its users, owners and repositories, each repository's areas
// (what its issues are about) and source files. The generator only chooses among these.

/** A user or organisation account. */
export interface AccountSpec {
  login: string;
  name: string;
  type: 'User' | 'Organization';
}

/** A source file of a repository: its functions are generated in the file's language. */
export interface FileSpec {
  path: string;
  functions: readonly string[];
}

/** A repository to seed. */
export interface RepositorySpec {
  owner: string;
  name: string;
  description: string;
  language: 'typescript' | 'go' | 'python';
  issueCount: number;
  /** Parts of the product issues are filed against ("checkout", "rate limiter"). */
  areas: readonly string[];
  /** Members who triage, review and get assigned. */
  maintainers: readonly string[];
  files: readonly FileSpec[];
}

/** Every person of the seeded world (they open issues, comment and review). */
export const USERS: readonly AccountSpec[] = [
  ['dana', 'Dana Whitfield'],
  ['sam', 'Sam Okafor'],
  ['lee', 'Lee Park'],
  ['priya', 'Priya Raman'],
  ['marco', 'Marco Bellini'],
  ['yuki', 'Yuki Tanaka'],
  ['amara', 'Amara Nwosu'],
  ['jonas', 'Jonas Lindqvist'],
  ['fatima', 'Fatima Zahra'],
  ['chen', 'Chen Wei'],
  ['olga', 'Olga Petrova'],
  ['kwame', 'Kwame Mensah'],
  ['ines', 'Inês Carvalho'],
  ['ravi', 'Ravi Shankar'],
  ['noah', 'Noah Fischer'],
  ['sofia', 'Sofia Alvarez'],
].map(([login, name]) => ({ login: login!, name: name!, type: 'User' as const }));

/** The organisations that own repositories. */
export const ORGANIZATIONS: readonly AccountSpec[] = [
  { login: 'acme', name: 'Acme Corp', type: 'Organization' },
  { login: 'octo-labs', name: 'Octo Labs', type: 'Organization' },
];

/** The repositories, in creation order. */
export const REPOSITORIES: readonly RepositorySpec[] = [
  {
    owner: 'acme',
    name: 'webapp',
    description: 'The Acme storefront: sign-in, catalogue, cart and checkout.',
    language: 'typescript',
    issueCount: 140,
    areas: [
      'login',
      'password reset',
      'checkout',
      'cart',
      'search page',
      'settings',
      'dark mode',
      'session cookie',
    ],
    maintainers: ['dana', 'sam', 'lee', 'marco'],
    files: [
      { path: 'src/auth/session.ts', functions: ['loadSession', 'saveSession', 'expireSession'] },
      { path: 'src/auth/reset.ts', functions: ['requestPasswordReset', 'resetPassword'] },
      { path: 'src/checkout/flow.ts', functions: ['startCheckout', 'reserveStock', 'capturePayment'] },
      { path: 'src/checkout/cart.ts', functions: ['addToCart', 'removeFromCart', 'applyCoupon'] },
      { path: 'src/settings/theme.ts', functions: ['readTheme', 'applyTheme'] },
      { path: 'src/search/query.ts', functions: ['parseSearchQuery', 'rankResults'] },
      { path: 'test/checkout.test.ts', functions: ['checkoutHappyPath', 'checkoutOutOfStock'] },
    ],
  },
  {
    owner: 'acme',
    name: 'api-gateway',
    description: 'Edge gateway in Go: routing, JWT auth and rate limiting for Acme services.',
    language: 'go',
    issueCount: 90,
    areas: ['rate limiter', 'JWT validation', 'proxy', 'health checks', 'config reload', 'metrics'],
    maintainers: ['jonas', 'chen', 'olga'],
    files: [
      { path: 'cmd/gateway/main.go', functions: ['main', 'loadConfig'] },
      { path: 'internal/ratelimit/limiter.go', functions: ['NewLimiter', 'Allow', 'refill'] },
      { path: 'internal/auth/jwt.go', functions: ['VerifyToken', 'parseClaims'] },
      { path: 'internal/proxy/proxy.go', functions: ['NewProxy', 'ServeHTTP', 'rewriteHeaders'] },
      { path: 'internal/health/health.go', functions: ['Check', 'Register'] },
    ],
  },
  {
    owner: 'acme',
    name: 'design-system',
    description: 'Shared React components and design tokens for Acme products.',
    language: 'typescript',
    issueCount: 70,
    areas: ['Button', 'Modal', 'DatePicker', 'tokens', 'Storybook', 'accessibility'],
    maintainers: ['yuki', 'amara', 'lee'],
    files: [
      { path: 'src/button/button.tsx', functions: ['Button', 'buttonClassName'] },
      { path: 'src/modal/modal.tsx', functions: ['Modal', 'trapFocus'] },
      { path: 'src/date-picker/date-picker.tsx', functions: ['DatePicker', 'formatDay'] },
      { path: 'src/tokens/colors.ts', functions: ['colorToken', 'contrastRatio'] },
    ],
  },
  {
    owner: 'octo-labs',
    name: 'telemetry',
    description: 'A small OpenTelemetry-compatible exporter and sampler for Python services.',
    language: 'python',
    issueCount: 80,
    areas: ['exporter', 'sampler', 'batch processor', 'OTLP encoding', 'retry policy', 'docs'],
    maintainers: ['fatima', 'kwame', 'ravi'],
    files: [
      { path: 'telemetry/exporter.py', functions: ['export_spans', 'shutdown'] },
      { path: 'telemetry/sampler.py', functions: ['should_sample', 'ratio_sampler'] },
      { path: 'telemetry/batch.py', functions: ['enqueue', 'flush', 'drain'] },
      { path: 'telemetry/retry.py', functions: ['retry_with_backoff', 'is_retryable'] },
      { path: 'tests/test_sampler.py', functions: ['test_ratio_sampler', 'test_parent_based'] },
    ],
  },
  {
    owner: 'priya',
    name: 'tiny-router',
    description: 'A 2 kB client-side router with nested routes and lazy loading.',
    language: 'typescript',
    issueCount: 30,
    areas: ['route matching', 'lazy routes', 'history API', 'TypeScript types'],
    maintainers: ['priya', 'noah'],
    files: [
      { path: 'src/router.ts', functions: ['createRouter', 'navigate', 'matchRoute'] },
      { path: 'src/history.ts', functions: ['pushState', 'onPopState'] },
    ],
  },
];
