/**
 * The import rules of the source folders, checked by `npm run check:imports`
 * (and by test/imports.test.ts in the suite). Layers, bottom up: config, geo,
 * science, tiles; ingest; api and jobs; cli and bench on top. A folder imports
 * only from below it, and no file takes part in an import circle, type-only
 * imports included.
 */
const upper = (...dirs) => `^(${dirs.join('|')})/`;

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'an import circle across files', from: {}, to: { circular: true } },
    { name: 'config-alone', severity: 'error', comment: 'config/ imports no other folder', from: { path: '^config/' }, to: { path: upper('geo', 'science', 'tiles', 'ingest', 'api', 'jobs', 'cli', 'bench') } },
    { name: 'geo-on-config', severity: 'error', comment: 'geo/ imports only config/', from: { path: '^geo/' }, to: { path: upper('science', 'tiles', 'ingest', 'api', 'jobs', 'cli', 'bench') } },
    { name: 'science-below-tiles', severity: 'error', comment: 'science/ imports only geo/ and config/', from: { path: '^science/' }, to: { path: upper('tiles', 'ingest', 'api', 'jobs', 'cli', 'bench') } },
    { name: 'tiles-below-ingest', severity: 'error', comment: 'tiles/ imports no upper layer', from: { path: '^tiles/' }, to: { path: upper('ingest', 'api', 'jobs', 'cli', 'bench') } },
    { name: 'ingest-below-api-jobs', severity: 'error', comment: 'ingest/ imports neither the API nor the jobs', from: { path: '^ingest/' }, to: { path: upper('api', 'jobs', 'cli', 'bench') } },
    { name: 'api-not-ingest', severity: 'error', comment: 'the read-only API never imports ingest/, jobs/ or cli/', from: { path: '^api/' }, to: { path: upper('ingest', 'jobs', 'cli', 'bench') } },
    { name: 'jobs-not-api', severity: 'error', comment: 'jobs/ imports neither the API nor cli/', from: { path: '^jobs/' }, to: { path: upper('api', 'cli', 'bench') } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|test)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a circle of types is still a circle to read.
    tsPreCompilationDeps: true,
  },
};
