/**
 * Plan gating of weather.php (interface spec 2.1, 4.1): which response fields
 * a key receives, `fields=` group selection, `time=` and San Marino. Pure
 * functions; refusals are ApiErrors (400 INVALID_PARAMETER, 403 PLAN_REQUIRED
 * naming the plan needed).
 *
 * Each field group's plan, `fields=` name and response fields are its
 * builder's (api/fields/registry.ts).
 */
import { ApiError } from '../errors.js';
import { isInSanMarino } from '../../geo/regions.js';
import { PLANS, type Plan } from './contract.js';
import { PLAN_LABEL, higherPlan, planAtLeast } from './plans.js';
import { BASE_FIELD_MIN_PLAN, FIELD_GROUPS, GROUP_FIELDS, GROUP_MIN_PLAN, type FieldGroup } from '../fields/registry.js';

export interface ResolvedFields {
  /** Groups to compute and return. */
  groups: ReadonlySet<FieldGroup>;
  /** Top-level response fields to return: base fields of the plan plus the groups' fields. */
  fields: ReadonlySet<string>;
}

const GROUP_SET: ReadonlySet<string> = new Set(FIELD_GROUPS);

/**
 * Parses `fields=` (comma-separated group names; whitespace around names and
 * letter case tolerated) and applies the plan. Absent: every group the plan
 * allows. Present: exactly those groups; an empty list or item, or an unknown
 * group, is 400 naming it; a group above the plan is 403 naming the plan.
 */
export function resolveFields(plan: Plan, fieldsParam: string | undefined): ResolvedFields {
  return fieldsParam === undefined ? defaultFields(plan) : withFields(plan, requestedGroups(plan, fieldsParam));
}

function withFields(plan: Plan, groups: ReadonlySet<FieldGroup>): ResolvedFields {
  const fields = new Set<string>();
  for (const [field, min] of Object.entries(BASE_FIELD_MIN_PLAN)) {
    if (planAtLeast(plan, min)) fields.add(field);
  }
  for (const g of groups) for (const f of GROUP_FIELDS[g]) fields.add(f);
  return { groups, fields };
}

function defaultGroups(plan: Plan): Set<FieldGroup> {
  return new Set(FIELD_GROUPS.filter((g) => planAtLeast(plan, GROUP_MIN_PLAN[g])));
}

/** Without `fields=` the answer depends on the plan alone: resolved once (two sets less per request). */
const DEFAULT_FIELDS = Object.fromEntries(PLANS.map((p) => [p, withFields(p, defaultGroups(p))])) as Record<Plan, ResolvedFields>;
const FREE_DEFAULT = DEFAULT_FIELDS.free;
const DEVELOPER_DEFAULT = DEFAULT_FIELDS.developer;
const BUSINESS_DEFAULT = DEFAULT_FIELDS.business;

/**
 * DEFAULT_FIELDS[plan] by comparisons: a key's plan read from Redis is a string V8 has not internalized, and a keyed
 * load by such a string looks it up in the string table on every request.
 */
function defaultFields(plan: Plan): ResolvedFields {
  return plan === 'free' ? FREE_DEFAULT : plan === 'business' ? BUSINESS_DEFAULT : plan === 'developer' ? DEVELOPER_DEFAULT : DEFAULT_FIELDS[plan];
}

function requestedGroups(plan: Plan, fieldsParam: string): Set<FieldGroup> {
  const items = fieldsParam.split(',').map((s) => s.trim().toLowerCase());
  if (items.length === 1 && items[0] === '') {
    throw new ApiError('INVALID_PARAMETER', `fields: empty; give one or more of ${FIELD_GROUPS.join(', ')}, or leave it out for all`);
  }
  const empty = items.findIndex((s) => s === '');
  if (empty >= 0) throw new ApiError('INVALID_PARAMETER', `fields: empty group name at position ${empty + 1} in '${fieldsParam}'`);
  const unknown = [...new Set(items.filter((s) => !GROUP_SET.has(s)))];
  if (unknown.length > 0) {
    const names = unknown.map((s) => `'${s}'`).join(', ');
    throw new ApiError('INVALID_PARAMETER', `fields: unknown group${unknown.length > 1 ? 's' : ''} ${names} (allowed: ${FIELD_GROUPS.join(', ')})`);
  }
  const groups = new Set(items as FieldGroup[]);
  const above = [...groups].filter((g) => !planAtLeast(plan, GROUP_MIN_PLAN[g]));
  if (above.length > 0) {
    const needed = above.map((g) => GROUP_MIN_PLAN[g]).reduce(higherPlan);
    throw new ApiError(
      'PLAN_REQUIRED',
      `fields: ${above.join(', ')} need${above.length > 1 ? '' : 's'} the ${PLAN_LABEL[needed]} plan (this key: ${PLAN_LABEL[plan]})`,
    );
  }
  return groups;
}

/**
 * `time=` needs Business, whatever instant it names: 403 otherwise. A past
 * hour (history) and a later hour of the live forecast alike: below Business
 * weather.php answers for now only. Call only when `time` is given.
 */
export function assertTimeAllowed(plan: Plan): void {
  if (!planAtLeast(plan, 'business')) {
    throw new ApiError('PLAN_REQUIRED', `time: choosing the valid time, past or forecast, needs the Business plan (this key: ${PLAN_LABEL[plan]}); without time= the answer is for now`);
  }
}

/** Points inside San Marino (100 m grid) need Developer: 403 otherwise. Coordinates in degrees. */
export function assertPointAllowed(plan: Plan, lat: number, lon: number): void {
  // The point first: four comparisons settle nearly every request, with no lookup by the plan's name.
  if (isInSanMarino(lat, lon) && !planAtLeast(plan, 'developer')) {
    throw new ApiError(
      'PLAN_REQUIRED',
      `lat/lon: points inside San Marino use the 100 m grid and need the Developer plan (this key: ${PLAN_LABEL[plan]})`,
    );
  }
}
