/**
 * The demo API key `meteopunto start` makes (Business plan, so every field
 * shows) and how it hands it over. A key is a secret and stdout may be a
 * log (under a supervisor or in a container it is): the whole key is
 * printed only when stdout is a terminal. Otherwise it goes to
 * $METEOPUNTO_DATA/demo-key.txt, readable by its owner only, and only that
 * path is printed. Either way it comes last, after the server's start-up
 * lines, with a curl to try.
 *
 * The key store keeps hashes only, so a key is shown once, when it is made;
 * a later start names its prefix (and the file, if it holds that key).
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEMO_KEY_NAME = 'demo key (npm start)';
export const DEMO_KEY_PLAN = 'business';
/** Where a non-terminal start leaves the key. */
export const DEMO_KEY_FILE = 'demo-key.txt';

export type DemoKey =
  | { kind: 'created'; key: string }
  | { kind: 'existing'; prefix: string }
  | { kind: 'unavailable'; why: string };

/** Make sure a demo key exists (before serving: the server then knows it). */
export async function ensureDemoKey(): Promise<DemoKey> {
  try {
    const { createAccessServices } = await import('../api/access/services.js');
    const { generateKey } = await import('../api/access/key-format.js');
    const services = await createAccessServices();
    try {
      const existing = (await services.keys.list()).find((r) => r.name === DEMO_KEY_NAME && !r.revoked);
      if (existing) return { kind: 'existing', prefix: existing.prefix };
      for (let attempt = 0; attempt < 5; attempt++) {
        const k = generateKey();
        const ok = await services.keys.insert({ prefix: k.prefix, hash: k.hash, plan: DEMO_KEY_PLAN, kind: 'api', name: DEMO_KEY_NAME, created: new Date().toISOString() });
        if (ok) return { kind: 'created', key: k.key };
      }
      return { kind: 'unavailable', why: 'no free key prefix after 5 attempts' };
    } finally {
      await services.close();
    }
  } catch (err) {
    return { kind: 'unavailable', why: err instanceof Error ? err.message : String(err) };
  }
}

/** The lines that hand the key over: to a terminal the key itself, elsewhere the file it was written to. */
export function announceDemoKey(k: DemoKey, opts: { url: string; root: string; terminal: boolean }): string[] {
  const file = join(opts.root, DEMO_KEY_FILE);
  const curl = (header: string) => `try: curl '${opts.url}/api/v1/weather.php?lat=41.9&lon=12.5' -H ${header}`;
  switch (k.kind) {
    case 'unavailable':
      return [`(no demo key: ${k.why}; create one with \`meteopunto keys create --plan free\`)`];
    case 'existing': {
      const inFile = existsSync(file) && readFileSync(file, 'utf8').trim().startsWith(k.prefix);
      return inFile
        ? [`demo API key (${DEMO_KEY_PLAN} plan): in ${file}`, curl(`"X-API-Key: $(cat ${file})"`)]
        : [`demo API key: ${k.prefix}… (${DEMO_KEY_PLAN} plan) was shown when it was created; keys are stored hashed. Make another with \`meteopunto keys create --plan ${DEMO_KEY_PLAN}\`.`];
    }
    case 'created':
      if (opts.terminal) return [`demo API key (${DEMO_KEY_PLAN} plan, shown once, stored hashed): ${k.key}`, curl(`'X-API-Key: ${k.key}'`)];
      writeFileSync(file, `${k.key}\n`, { mode: 0o600 });
      chmodSync(file, 0o600); // an older file keeps its mode otherwise
      return [
        `demo API key (${DEMO_KEY_PLAN} plan): written to ${file} (readable by this user only), not printed: stdout is not a terminal and may be a log`,
        curl(`"X-API-Key: $(cat ${file})"`),
      ];
  }
}
