/**
 * Command-line words as every command's parser (node:util parseArgs) should
 * see them. parseArgs reads `--lon -2.85` as an option followed by an
 * option `-2`, and refuses it as ambiguous; a negative number is never an
 * option name, so such a value is joined to its option (`--lon=-2.85`),
 * which parseArgs reads as meant. Done once, here, for every command.
 */
const NEGATIVE_NUMBER = /^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const LONG_OPTION = /^--[A-Za-z][\w-]*$/;

export function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    if (LONG_OPTION.test(word) && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${word}=${next}`);
      i++;
    } else {
      out.push(word);
    }
  }
  return out;
}
