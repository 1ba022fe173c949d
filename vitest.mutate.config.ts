// The test config Stryker runs (stryker.config.mjs): the suite's, narrowed to the tests of the
// scope under mutation (MUTATE_TESTS, a folder under test/; MUTATE_EXCLUDE, files left out).
import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const tests = process.env.MUTATE_TESTS ?? 'test/science';
const excluded = (process.env.MUTATE_EXCLUDE ?? '').split(',').filter((p) => p !== '');
export default defineConfig({ ...base, test: { ...base.test, include: [`${tests}/**/*.test.ts`], exclude: [...configDefaults.exclude, ...excluded] } });
