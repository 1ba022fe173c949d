/**
 * The ingest gate: before a version is published, every check of this
 * folder runs on what would go live (docs/gate.md). Any finding refuses the
 * ingest with a GateError naming the files, the checks and what they found;
 * the live version stays. An operator may allow checks by name for one
 * ingest (`meteopunto ingest … --allow <check>`, a job's `allow`): their
 * findings are then recorded in the new version's manifest instead.
 */
import { basename } from 'node:path';
import { recordGateRefusals } from '../../tiles/gate-refusals.js';
import { IngestError } from '../ingest-types.js';
import { CHECK_NAMES, isCheckName, type CheckName, type Finding, type GateCheck, type GateContext } from './check.js';
import { collapse } from './collapse.js';
import { finiteFractionCheck } from './finite-fraction.js';
import { monotoneSteps } from './monotone-steps.js';
import { physicalRange } from './physical-range.js';
import { timeAxis } from './time-axis.js';

/** In this order: a file without time makes the value checks moot, but all run, so one refusal says everything. */
export const CHECKS: readonly GateCheck[] = [timeAxis, monotoneSteps, finiteFractionCheck, physicalRange, collapse];

/** Findings per check named in a refusal's message (all are in GateError.findings). */
const SHOWN = 3;
/** Findings per allowed check recorded in the manifest. */
const RECORDED = 20;

/** A check the operator allowed for this ingest and what it found (recorded in the manifest's source). */
export interface GateOverride {
  check: CheckName;
  findings: string[];
}

/** The gate refused the ingest: the findings name what is wrong; nothing was published. */
export class GateError extends IngestError {
  constructor(
    readonly files: readonly string[],
    readonly findings: readonly Finding[],
  ) {
    const checks = [...new Set(findings.map((f) => f.check))];
    const said = checks.map((c) => {
      const of = findings.filter((f) => f.check === c).map((f) => f.message);
      return `${c}: ${of.slice(0, SHOWN).join('; ')}${of.length > SHOWN ? `; and ${of.length - SHOWN} more` : ''}`;
    });
    super(
      `${[...new Set(files.map((f) => basename(f)))].join(', ')}: refused by the ingest gate: ${said.join('; ')}` +
        ` (to publish anyway, allow a check by name: --allow ${checks[0]})`,
    );
    this.name = 'GateError';
  }

  get checks(): CheckName[] {
    return [...new Set(this.findings.map((f) => f.check))];
  }
}

/** Check names an operator gave, validated: an unknown one is an IngestError naming the known ones. */
export function allowedChecks(names: readonly string[] | undefined): CheckName[] {
  const out: CheckName[] = [];
  for (const n of names ?? []) {
    if (!isCheckName(n)) throw new IngestError(`--allow ${n}: no such gate check (checks: ${CHECK_NAMES.join(', ')})`);
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/**
 * Run every check. On a finding of a check not allowed: records the refusal
 * (tiles/gate-refusals.ts, counted by /metrics) and throws GateError. Else
 * returns the allowed checks with what they found.
 */
export async function runGate(ctx: GateContext, files: readonly string[], allow: readonly CheckName[]): Promise<GateOverride[]> {
  const findings: Finding[] = [];
  for (const check of CHECKS) findings.push(...(await check.run(ctx)));
  const refused = findings.filter((f) => !allow.includes(f.check));
  if (refused.length > 0) {
    const err = new GateError(files, refused);
    const at = new Date(ctx.nowMs).toISOString();
    recordGateRefusals(ctx.root, err.checks.map((check) => ({ at, product: ctx.product.name, check, files: files.map((f) => basename(f)) })));
    throw err;
  }
  return allow.map((check) => {
    const of = findings.filter((f) => f.check === check).map((f) => f.message);
    return { check, findings: of.length > RECORDED ? [...of.slice(0, RECORDED), `and ${of.length - RECORDED} more`] : of };
  });
}
