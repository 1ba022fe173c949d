/**
 * Child process for the crash test: publishes a large constant version
 * (the parent SIGKILLs it mid-write). Prints 'done' if it ever finishes.
 * Usage: node --import tsx slow-writer.ts <root> <product> <k>
 */
import { writeProductVersion } from '../../../../tiles/write/writer.js';
import { constantInput } from '../../fields.js';

const [root, product, k] = process.argv.slice(2) as [string, string, string];
const grid = { kind: 'regular_ll' as const, nx: 320, ny: 320, x0: 7, y0: 36, dx: 0.02, dy: 0.02 };
console.log('start');
await writeProductVersion(root, constantInput(product, Number(k), grid, 24, 8));
console.log('done');
