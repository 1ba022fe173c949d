/**
 * Plan gating of weather.php (interface spec 2.1, 4.1): which response fields
 * a key receives, `fields=` group selection, `time=` and San Marino. Pure
 * functions; refusals are ApiErrors (400 INVALID_PARAMETER, 403 PLAN_REQUIRED
 * naming the plan needed).
 *
 * Field groups and the response fields they select:
 *
 * | group   | response fields          | min. plan |
 * |---------|--------------------------|-----------|
 * | cams    | air_quality, pollen      | Developer |
 * | frost   | frost                    | Developer |
 * | et0     | et0                      | Developer |
 * | wbgt    | wbgt                     | Developer |
 * | coastal | coastal                  | Business  |
 * | soil    | soil                     | Business  |
 *
 * Fields outside every group come whenever the plan allows them: the Free
 * fields and `elapsed_ms` always, `comfort` and `uv_index` from Developer.
 */
import { ApiError } from '../errors.js';
import { isInSanMarino } from '../../geo/regions.js';
import { FIELD_GROUPS, PLANS, type FieldGroup, type Plan } from './contract.js';
import { PLAN_LABEL, higherPlan, planAtLeast } from './plans.js';

export { FIELD_GROUPS, type FieldGroup };

/** The lowest plan that receives each group. */
export const GROUP_MIN_PLAN = {
  cams: 'developer',
  frost: 'developer',
  et0: 'developer',
  wbgt: 'developer',
  coastal: 'business',
  soil: 'business',
} as const satisfies Record<FieldGroup, Plan>;

/** The top-level response fields each group selects. */
export const GROUP_FIELDS = {
  cams: ['air_quality', 'pollen'],
  frost: ['frost'],
  et0: ['et0'],
  wbgt: ['wbgt'],
  coastal: ['coastal'],
  soil: ['soil'],
} as const satisfies Record<FieldGroup, readonly string[]>;

/** Fields no group selects, with the lowest plan that receives them. */
export const BASE_FIELD_MIN_PLAN = {
  icon: 'free',
  condition: 'free',
  temperature: 'free',
  temperature_source: 'free',
  dew_point: 'free',
  humidity: 'free',
  pressure_msl: 'free',
  wind_speed: 'free',
  wind_direction: 'free',
  wind_gust: 'free',
  temperature_trend_3h: 'free',
  elapsed_ms: 'free',
  comfort: 'developer',
  uv_index: 'developer',
} as const satisfies Record<string, Plan>;

export type GroupField = (typeof GROUP_FIELDS)[FieldGroup][number];
export type BaseField = keyof typeof BASE_FIELD_MIN_PLAN;
/** Every top-level field weather.php can return. */
export type ResponseField = BaseField | GroupField;

export interface ResolvedFields {
  /** Groups to compute and return. */
  groups: ReadonlySet<FieldGroup>;
  /** Top-level response fields to return: base fields of the plan plus the groups' fields. */
  fields: ReadonlySet<ResponseField>;
}

const GROUP_SET: ReadonlySet<string> = new Set(FIELD_GROUPS);

/**
 * Parses `fields=` (comma-separated group names; whitespace around names and
 * letter case tolerated) and applies the plan. Absent: every group the plan
 * allows. Present: exactly those groups; an empty list or item, or an unknown
 * group, is 400 naming it; a group above the plan is 403 naming the plan.
 */
export function resolveFields(plan: Plan, fieldsParam: string | undefined): ResolvedFields {
  return fieldsParam === undefined ? DEFAULT_FIELDS[plan] : withFields(plan, requestedGroups(plan, fieldsParam));
}

function withFields(plan: Plan, groups: ReadonlySet<FieldGroup>): ResolvedFields {
  const fields = new Set<ResponseField>();
  for (const [field, min] of Object.entries(BASE_FIELD_MIN_PLAN) as Array<[BaseField, Plan]>) {
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
    const needed = above.map((g) => GROUP_MIN_PLAN[g] as Plan).reduce(higherPlan);
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
  if (!planAtLeast(plan, 'developer') && isInSanMarino(lat, lon)) {
    throw new ApiError(
      'PLAN_REQUIRED',
      `lat/lon: points inside San Marino use the 100 m grid and need the Developer plan (this key: ${PLAN_LABEL[plan]})`,
    );
  }
}
