// Mutation testing: `npm run mutate` over science/, `npm run mutate:fields` over
// api/fields/. Not part of `npm test`: a full run takes tens of minutes on two cores.
// Results and the explained survivors are in docs/development.md.
import { resolve } from 'node:path';

const scopes = {
  // The checker compiles science/ alone (tsconfig.mutate.json: science/ and what it imports):
  // with the whole project it held runs back (minutes per batch of mutants here). A mutant that
  // would break only a caller's types elsewhere is then tested instead of refused: counted.
  science: { mutate: ['science/**/*.ts'], tests: 'test/science', tsconfig: 'tsconfig.mutate.json' },
  // The sample-dataset tests start tile decode threads, which get no workerData inside
  // Stryker's sandbox (the dry run stops there); the fields' other tests cover the same code.
  fields: { mutate: ['api/fields/**/*.ts'], tests: 'test/api/fields', exclude: ['test/api/fields/**/sample.test.ts', 'test/api/fields/developer/weather-route.test.ts'] },
};
const scope = scopes[process.env.MUTATE_SCOPE ?? 'science'];
if (!scope) throw new Error(`MUTATE_SCOPE must be one of ${Object.keys(scopes).join(', ')}`);

// Stryker runs the tests in a copy under .stryker-tmp/, where test/support/shared-data.ts would
// look for ../shared beside the copy; point it at the one beside this checkout.
process.env.MP_SHARED_DIR ??= resolve(import.meta.dirname, '../shared');
// vitest.mutate.config.ts runs only the scope's tests.
process.env.MUTATE_TESTS = scope.tests;
process.env.MUTATE_EXCLUDE = (scope.exclude ?? []).join(',');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: scope.mutate,
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  checkers: ['typescript'],
  tsconfigFile: scope.tsconfig ?? 'tsconfig.json',
  coverageAnalysis: 'perTest',
  // The machine is shared; raise with --concurrency where cores are free.
  concurrency: 2,
  timeoutFactor: 3,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  incremental: false,
};
