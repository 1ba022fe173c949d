import { describe, expect, it } from 'vitest';
import { copyFreeFields } from '../../../../api/fields/base/fields.js';
import { FreeFieldsSchema, type FreeFields } from '../../../../api/fields/base/schema.js';

describe('copyFreeFields', () => {
  it('copies every Free field the response schema declares, each as is', () => {
    // A distinct marker per schema property, so a field copied from the wrong name shows.
    const names = Object.keys(FreeFieldsSchema.properties);
    const from = Object.fromEntries(names.map((n) => [n, `value of ${n}`])) as unknown as FreeFields;
    const out: Record<string, unknown> = { before: 1 };
    copyFreeFields(from, out);
    expect(out).toEqual({ before: 1, ...Object.fromEntries(names.map((n) => [n, `value of ${n}`])) });
  });
});
