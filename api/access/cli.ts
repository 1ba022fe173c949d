/**
 * `meteopunto keys ...`: the operator's key management. Uses Redis when
 * REDIS_URL is set, else `$METEOPUNTO_DATA/keys.json`.
 *
 *   keys create --plan free|developer|business [--widget] [--name <label>] [--origins <list>]
 *   keys list
 *   keys show <prefix>
 *   keys revoke <prefix>
 *   keys set-plan <prefix> <plan>
 *   keys import
 */
import { parseArgs } from 'node:util';
import { PLANS } from './contract.js';
import { parseOrigin } from './authenticate.js';
import { generateKey, isPrefix } from './key-format.js';
import type { KeyRecord } from './key-store.js';
import { FileKeyStore } from './key-store-file.js';
import { checkRecords, importKeys } from './key-import.js';
import { PLAN_LABEL, parsePlan } from './plans.js';
import { createAccessServices, type AccessServices } from './services.js';
import { processEnv } from '../../config/process-env.js';

const USAGE = `usage: meteopunto keys <command>
  create --plan ${PLANS.join('|')} [--widget] [--name <label>] [--origins <origin,...>]
                     issue a key (printed once; only its hash is stored)
  list               every key: prefix, plan, kind, name, created, revoked
  show <prefix>      one key, with today's usage
  revoke <prefix>    stop a key at once, on every API process
  set-plan <prefix> <plan>
  import             copy $METEOPUNTO_DATA/keys.json into Redis (REDIS_URL), hashes only; safe to repeat
keys live in Redis when REDIS_URL is set, else in $METEOPUNTO_DATA/keys.json`;

/** `keys <command> --help`: what the command does and its arguments. */
const HELP: Record<string, string> = {
  create: `usage: meteopunto keys create --plan ${PLANS.join('|')} [--widget] [--name <label>] [--origins <origin,...>]

Issues a new API key and prints it once; only its SHA-256 is stored.

options:
  --plan <plan>        ${PLANS.join(', ')} (required): quotas and field groups (docs/access.md)
  --widget             a widget key, for widget.php embedded in a page (sent by browsers)
  --name <label>       a label shown by keys list
  --origins <list>     widget keys: the https origins allowed to embed it, comma-separated`,
  list: `usage: meteopunto keys list

Every key: prefix, plan, kind, name, created and revoked times (UTC). No options.`,
  show: `usage: meteopunto keys show <prefix>

One key by its 8-character prefix (as keys list shows it), with today's and this minute's usage when REDIS_URL is set.`,
  revoke: `usage: meteopunto keys revoke <prefix>

Stops the key at once, on every API process sharing the key store. The record stays, marked revoked.`,
  'set-plan': `usage: meteopunto keys set-plan <prefix> <plan>

Moves the key to another plan (${PLANS.join(', ')}): its quotas and field groups (docs/access.md).`,
  import: `usage: meteopunto keys import

Copies every key record of $METEOPUNTO_DATA/keys.json (the store used without REDIS_URL) into Redis
(REDIS_URL, required): hashes only, as they are. A key already in Redis is left as it is, except that
a revocation in the file is applied; running it again changes nothing. keys.json is left in place,
no longer read. Exit 1 when a prefix is held in Redis by another key (reported, not touched).`,
};

/** A mistake in the command line: printed with the usage, exit 2. */
class UsageError extends Error {}

export async function run(argv: string[], env: NodeJS.ProcessEnv = processEnv()): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const handler = COMMANDS[command];
  if (handler && (rest.includes('--help') || rest.includes('-h'))) {
    console.log(HELP[command] ?? USAGE);
    return 0;
  }
  if (!handler) {
    console.error(`keys: unknown command '${command}'\n${USAGE}`);
    return 2;
  }
  let services: AccessServices | undefined;
  try {
    const parsed = handler.parse(rest);
    services = await createAccessServices({ env });
    // import reports on the file itself; every other command warns of keys left behind in it.
    if (command !== 'import') for (const notice of services.notices) console.error(`meteopunto: warning: ${notice}`);
    return await handler.exec(services, parsed);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    console.error(`keys ${command}: ${msg}`);
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await services?.close();
  }
}

interface Handler {
  parse(args: string[]): Record<string, unknown>;
  exec(s: AccessServices, a: Record<string, unknown>): Promise<number>;
}

function positional(args: string[], names: string[]): Record<string, string> {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: {} }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (positionals.length !== names.length) {
    throw new UsageError(names.length === 0 ? 'takes no arguments' : `expected ${names.map((n) => `<${n}>`).join(' ')}`);
  }
  return Object.fromEntries(names.map((n, i) => [n, positionals[i]!]));
}

function checkedPrefix(p: string): string {
  if (!isPrefix(p)) throw new UsageError(`'${p}' is not a key prefix (8 letters or digits, as shown by keys list)`);
  return p;
}

async function existing(s: AccessServices, prefix: string): Promise<KeyRecord> {
  const r = await s.keys.get(prefix);
  if (!r) throw new Error(`no key with prefix '${prefix}' (see keys list)`);
  return r;
}

const COMMANDS: Record<string, Handler> = {
  create: {
    parse(args) {
      let values;
      try {
        ({ values } = parseArgs({
          args,
          strict: true,
          options: { plan: { type: 'string' }, widget: { type: 'boolean' }, name: { type: 'string' }, origins: { type: 'string' } },
        }));
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      if (!values.plan) throw new UsageError(`--plan is required (${PLANS.join(', ')})`);
      let plan;
      try {
        plan = parsePlan(values.plan);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      if (values.origins !== undefined && !values.widget) throw new UsageError('--origins applies to widget keys: add --widget');
      const origins = values.origins
        ?.split(',')
        .map((o) => o.trim())
        .filter((o) => o !== '')
        .map((o) => {
          const origin = parseOrigin(o);
          if (!origin) throw new UsageError(`--origins: '${o}' is not an http(s) origin such as https://example.com`);
          return origin;
        });
      return { plan, widget: values.widget ?? false, name: values.name, origins };
    },
    async exec(s, a) {
      const plan = a.plan as KeyRecord['plan'];
      for (let attempt = 0; attempt < 5; attempt++) {
        const { key, prefix, hash } = generateKey();
        const record: KeyRecord = { prefix, hash, plan, kind: a.widget ? 'widget' : 'api', created: new Date().toISOString() };
        if (typeof a.name === 'string') record.name = a.name;
        const origins = a.origins as string[] | undefined;
        if (origins && origins.length > 0) record.origins = origins;
        if (!(await s.keys.insert(record))) continue; // prefix collision: draw again
        console.log(`key:    ${key}`);
        console.log(`prefix: ${prefix}`);
        console.log(`plan:   ${PLAN_LABEL[plan]}`);
        console.log(`kind:   ${record.kind}${record.origins ? ` (origins: ${record.origins.join(', ')})` : ''}`);
        console.log(`store:  ${s.keys.location}`);
        console.log('The key is shown only this once: only its SHA-256 is stored.');
        return 0;
      }
      throw new Error('could not draw an unused prefix');
    },
  },
  list: {
    parse: (args) => positional(args, []),
    async exec(s) {
      const rows = (await s.keys.list()).map((r) => [
        r.prefix,
        r.plan,
        r.kind,
        r.name ?? '',
        r.created.slice(0, 19).replace('T', ' '),
        r.revoked ? r.revoked.slice(0, 19).replace('T', ' ') : '',
      ]);
      const header = ['PREFIX', 'PLAN', 'KIND', 'NAME', 'CREATED (UTC)', 'REVOKED (UTC)'];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
      for (const r of [header, ...rows]) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
      return 0;
    },
  },
  show: {
    parse: (args) => positional(args, ['prefix']),
    async exec(s, a) {
      const r = await existing(s, checkedPrefix(a.prefix as string));
      const limits = s.quota.limits(r.plan);
      console.log(`prefix:   ${r.prefix}`);
      console.log(`plan:     ${PLAN_LABEL[r.plan]} (${limits.day}/day, ${limits.minute}/minute)`);
      console.log(`kind:     ${r.kind}${r.origins ? ` (origins: ${r.origins.join(', ')})` : ''}`);
      if (r.name) console.log(`name:     ${r.name}`);
      console.log(`created:  ${r.created}`);
      console.log(`status:   ${r.revoked ? `revoked ${r.revoked}` : 'active'}`);
      if (s.mode === 'redis') {
        const u = await s.quota.peek(r.prefix, r.plan);
        console.log(`today:    ${u.day.used} used, ${u.day.remaining} remaining (UTC day, resets in ${formatHm(u.day.resetMs)})`);
        console.log(`minute:   ${u.minute.used} used, ${u.minute.remaining} remaining`);
      } else {
        console.log('today:    not available in embedded mode (the API process counts in its own memory; set REDIS_URL to share)');
      }
      return 0;
    },
  },
  revoke: {
    parse: (args) => positional(args, ['prefix']),
    async exec(s, a) {
      const prefix = checkedPrefix(a.prefix as string);
      const r = await existing(s, prefix);
      if (r.revoked) {
        console.log(`key ${prefix} was already revoked at ${r.revoked}`);
        return 0;
      }
      const done = await s.keys.update(prefix, { revoked: new Date().toISOString() });
      console.log(`revoked ${prefix} at ${done!.revoked}`);
      return 0;
    },
  },
  import: {
    parse: (args) => positional(args, []),
    exec: (s) => importFromFile(s),
  },
  'set-plan': {
    parse(args) {
      const p = positional(args, ['prefix', 'plan']);
      try {
        return { prefix: checkedPrefix(p.prefix!), plan: parsePlan(p.plan!) };
      } catch (err) {
        throw err instanceof UsageError ? err : new UsageError((err as Error).message);
      }
    },
    async exec(s, a) {
      const r = await existing(s, a.prefix as string);
      const plan = a.plan as KeyRecord['plan'];
      await s.keys.update(r.prefix, { plan });
      console.log(`key ${r.prefix}: plan ${PLAN_LABEL[r.plan]} -> ${PLAN_LABEL[plan]}`);
      return 0;
    },
  },
};

async function importFromFile(s: AccessServices): Promise<number> {
  if (s.mode !== 'redis') throw new UsageError(`moves ${s.keysFile} into Redis: set REDIS_URL to the Redis the API processes use`);
  const records = checkRecords(await new FileKeyStore(s.keysFile).list(), s.keysFile);
  if (records.length === 0) {
    console.log(`no keys in ${s.keysFile}: nothing to import`);
    return 0;
  }
  const r = await importKeys(records, s.keys);
  const revoked = r.revoked.length > 0 ? `, ${r.revoked.length} revoked as in the file (${r.revoked.join(', ')})` : '';
  console.log(`${s.keysFile} -> Redis at ${s.keys.location}: ${r.imported.length} imported, ${r.present.length} already there${revoked}`);
  for (const p of r.conflicts) console.error(`keys import: prefix ${p} is in Redis for another key (a different hash): left as it is, not imported`);
  if (r.conflicts.length === 0) console.log(`with REDIS_URL set, ${s.keysFile} is no longer read; keep it as a backup or delete it`);
  return r.conflicts.length > 0 ? 1 : 0;
}

function formatHm(ms: number): string {
  const m = Math.ceil(ms / 60_000);
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
