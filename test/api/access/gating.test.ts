/** Plan gating (interface spec 2.1, 4.1), with the expected table written out from the spec, not imported. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/errors.js';
import { assertPointAllowed, assertTimeAllowed, resolveFields } from '../../../api/access/gating.js';
import type { Plan } from '../../../api/access/contract.js';

const PLANS: Plan[] = ['free', 'developer', 'business'];
// Spec 2.1: cams, frost, et0, wbgt from Developer; coastal, soil from Business.
const MIN: Record<string, Plan> = { cams: 'developer', frost: 'developer', et0: 'developer', wbgt: 'developer', coastal: 'business', soil: 'business' };
const RANK: Record<Plan, number> = { free: 0, developer: 1, business: 2 };
const FREE_FIELDS = [
  'icon',
  'condition',
  'temperature',
  'temperature_source',
  'dew_point',
  'humidity',
  'pressure_msl',
  'wind_speed',
  'wind_direction',
  'wind_gust',
  'temperature_trend_3h',
  // Not in the spec's table: the service's own field, on every answer.
  'valid_time',
  'elapsed_ms',
];

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('resolveFields', () => {
  it('gives each plan exactly its fields by default', () => {
    expect([...resolveFields('free', undefined).fields].sort()).toEqual([...FREE_FIELDS].sort());
    expect([...resolveFields('free', undefined).groups]).toEqual([]);
    expect([...resolveFields('developer', undefined).fields].sort()).toEqual(
      [...FREE_FIELDS, 'comfort', 'uv_index', 'wbgt', 'air_quality', 'pollen', 'frost', 'et0'].sort(),
    );
    expect([...resolveFields('business', undefined).fields].sort()).toEqual(
      [...FREE_FIELDS, 'comfort', 'uv_index', 'wbgt', 'air_quality', 'pollen', 'frost', 'et0', 'coastal', 'soil'].sort(),
    );
  });

  for (const plan of PLANS) {
    for (const group of Object.keys(MIN)) {
      const allowed = RANK[plan] >= RANK[MIN[group]!];
      it(`${plan} key, fields=${group}: ${allowed ? 'returned' : `403 naming ${MIN[group]}`}`, () => {
        if (allowed) {
          const r = resolveFields(plan, group);
          expect([...r.groups]).toEqual([group]);
          const selected = group === 'cams' ? ['air_quality', 'pollen'] : [group];
          for (const f of selected) expect(r.fields.has(f as never)).toBe(true);
          // Other groups' fields are not selected.
          for (const other of ['air_quality', 'pollen', 'frost', 'et0', 'wbgt', 'coastal', 'soil']) {
            if (!selected.includes(other)) expect(r.fields.has(other as never)).toBe(false);
          }
        } else {
          const e = refusal(() => resolveFields(plan, group));
          expect(e.status).toBe(403);
          expect(e.code).toBe('PLAN_REQUIRED');
          expect(e.message).toContain(MIN[group] === 'business' ? 'Business' : 'Developer');
          expect(e.message).toContain(group);
        }
      });
    }
  }

  it('names the highest plan needed when several groups are above the key', () => {
    const e = refusal(() => resolveFields('free', 'wbgt,coastal'));
    expect(e.code).toBe('PLAN_REQUIRED');
    expect(e.message).toMatch(/wbgt, coastal need the Business plan/);
    expect(refusal(() => resolveFields('developer', 'cams, soil')).message).toMatch(/soil needs the Business plan \(this key: Developer\)/);
  });

  it('tolerates whitespace, case and duplicates', () => {
    expect([...resolveFields('business', ' Coastal , soil,coastal ').groups].sort()).toEqual(['coastal', 'soil']);
  });

  it('keeps the plan base fields whatever groups are chosen', () => {
    const r = resolveFields('developer', 'frost');
    expect(r.fields.has('comfort')).toBe(true);
    expect(r.fields.has('uv_index')).toBe(true);
    expect(r.fields.has('temperature')).toBe(true);
    expect(r.fields.has('wbgt')).toBe(false);
  });

  it('rejects unknown groups with 400 naming them, before any plan check', () => {
    const e = refusal(() => resolveFields('free', 'coastal,temperature,bogus'));
    expect(e.status).toBe(400);
    expect(e.code).toBe('INVALID_PARAMETER');
    expect(e.message).toContain("'temperature', 'bogus'");
    expect(e.message).toContain('fields');
  });

  it('rejects an empty list or an empty item', () => {
    for (const bad of ['', ' ', 'coastal,', ',soil', 'cams,,frost']) {
      const e = refusal(() => resolveFields('business', bad));
      expect(e.status, bad).toBe(400);
      expect(e.message).toMatch(/^fields: empty/);
    }
  });
});

describe('assertTimeAllowed', () => {
  it('lets only Business ask for time=', () => {
    expect(() => assertTimeAllowed('business')).not.toThrow();
    for (const plan of ['free', 'developer'] as const) {
      const e = refusal(() => assertTimeAllowed(plan));
      expect(e.status).toBe(403);
      expect(e.code).toBe('PLAN_REQUIRED');
      expect(e.message).toContain('Business');
    }
  });
});

describe('assertPointAllowed', () => {
  it('asks for Developer inside San Marino only', () => {
    const e = refusal(() => assertPointAllowed('free', 43.936, 12.447));
    expect(e.status).toBe(403);
    expect(e.code).toBe('PLAN_REQUIRED');
    expect(e.message).toContain('Developer');
    expect(e.message).toContain('San Marino');
    expect(() => assertPointAllowed('developer', 43.936, 12.447)).not.toThrow();
    expect(() => assertPointAllowed('business', 43.936, 12.447)).not.toThrow();
    // Rimini, just outside; Milano.
    expect(() => assertPointAllowed('free', 44.06, 12.57)).not.toThrow();
    expect(() => assertPointAllowed('free', 45.46, 9.19)).not.toThrow();
  });
});
