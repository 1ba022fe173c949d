/**
 * The field-group registry, the plan gating and the API document agree: each
 * group's plan and response fields as the interface spec (section 2.1) and
 * docs/api.md give them, written out here; the gating's answer for each plan
 * is exactly the fields the document's 200 schema marks for that plan; the
 * document lists the fields in response order and names every `fields=`
 * group.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import type { Plan } from '../../../api/access/contract.js';
import { resolveFields } from '../../../api/access/gating.js';
import { BUILDERS, FIELD_GROUPS, GROUP_FIELDS, GROUP_MIN_PLAN } from '../../../api/fields/registry.js';

// Spec 2.1: cams, frost, et0, wbgt from Developer; coastal, soil from Business.
// docs/api.md: `cams` selects air_quality and pollen, each other group the field of its name.
const SPEC: Record<string, { plan: Plan; fields: string[] }> = {
  coastal: { plan: 'business', fields: ['coastal'] },
  soil: { plan: 'business', fields: ['soil'] },
  cams: { plan: 'developer', fields: ['air_quality', 'pollen'] },
  frost: { plan: 'developer', fields: ['frost'] },
  et0: { plan: 'developer', fields: ['et0'] },
  wbgt: { plan: 'developer', fields: ['wbgt'] },
};

// The response order of docs/api.md: the Free fields, the Developer ones, then the groups'.
const RESPONSE_ORDER = [
  'icon', 'condition', 'temperature', 'temperature_source', 'dew_point', 'humidity', 'pressure_msl',
  'wind_speed', 'wind_direction', 'wind_gust', 'temperature_trend_3h', 'valid_time',
  'comfort', 'uv_index', 'wbgt', 'frost', 'et0', 'air_quality', 'pollen', 'coastal', 'soil', 'elapsed_ms',
];

/** The plan label each field's description ends with in the document. */
const PLAN_SUFFIX: Record<Plan, string> = { free: 'Free plan and above', developer: 'Developer plan and above', business: 'Business plan' };
const RANK: Record<Plan, number> = { free: 0, developer: 1, business: 2 };

describe('the registry', () => {
  it('declares the spec groups, each with its plan and response fields', () => {
    expect([...FIELD_GROUPS].sort()).toEqual(Object.keys(SPEC).sort());
    for (const [g, want] of Object.entries(SPEC)) {
      expect(GROUP_MIN_PLAN[g as keyof typeof GROUP_MIN_PLAN], g).toBe(want.plan);
      expect(GROUP_FIELDS[g as keyof typeof GROUP_FIELDS], g).toEqual(want.fields);
    }
  });

  it('gives every response field to one builder, and every group field is its builder\'s', () => {
    const seen = new Map<string, string>();
    for (const b of BUILDERS) {
      for (const p of Object.keys(b.properties)) {
        expect(seen.get(p), `${p} in ${b.name} and ${seen.get(p)}`).toBeUndefined();
        seen.set(p, b.name);
      }
      for (const [g, fields] of Object.entries(b.groups)) for (const f of fields) expect(b.properties, `${b.name} group ${g}`).toHaveProperty(f);
    }
  });
});

describe('gating and the API document', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-registry-'));
  let app: FastifyInstance;
  let properties: Record<string, { description?: string }>;
  let fieldsParam: { description?: string } | undefined;

  beforeAll(async () => {
    app = await buildApp({ dataDir: dir, access: { env: { METEOPUNTO_DATA: dir } } });
    const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const get = res.json().paths['/api/v1/weather.php'].get;
    properties = get.responses['200'].content['application/json'].schema.properties;
    fieldsParam = get.parameters.find((p: { name: string }) => p.name === 'fields');
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the response fields in response order', () => {
    expect(Object.keys(properties)).toEqual(RESPONSE_ORDER);
  });

  for (const plan of ['free', 'developer', 'business'] as const) {
    it(`gives a ${plan} key exactly the fields the document marks for its plan`, () => {
      const marked = Object.entries(properties)
        .filter(([, s]) => (Object.keys(PLAN_SUFFIX) as Plan[]).some((p) => RANK[p] <= RANK[plan] && s.description?.endsWith(PLAN_SUFFIX[p])))
        .map(([name]) => name);
      expect([...resolveFields(plan, undefined).fields].sort()).toEqual(marked.sort());
    });
  }

  it('marks each group\'s fields with the spec plan', () => {
    for (const [g, want] of Object.entries(SPEC)) {
      for (const f of want.fields) expect(properties[f]?.description, `${g}: ${f}`).toMatch(new RegExp(`${PLAN_SUFFIX[want.plan]}$`));
    }
  });

  it('names every group in the fields parameter', () => {
    for (const g of Object.keys(SPEC)) expect(fieldsParam?.description).toContain(g);
  });
});
