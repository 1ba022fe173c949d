import { describe, expect, it } from 'vitest';
import { DEFAULT_DOMAIN, DomainConfigError, domainFromEnv } from '../../config/domain.js';
import { cropWindow } from '../../ingest/mapping/crop.js';
import { ingestDomain } from '../../ingest/mapping/domain.js';

describe('METEOPUNTO_DOMAIN', () => {
  it('defaults to the interface box 35..48 N, 5..20.5 E', () => {
    expect(domainFromEnv({})).toEqual({ latMin: 35, latMax: 48, lonMin: 5, lonMax: 20.5 });
    expect(domainFromEnv({ METEOPUNTO_DOMAIN: '  ' })).toEqual(DEFAULT_DOMAIN);
  });

  it('reads <south>,<north>,<west>,<east>, west of Greenwich included', () => {
    expect(domainFromEnv({ METEOPUNTO_DOMAIN: '36, 44, -10, 4.5' })).toEqual({ latMin: 36, latMax: 44, lonMin: -10, lonMax: 4.5 });
  });

  it.each([
    ['35,48,5', /3 values, need 4/],
    ['35,48,5,20.5,1', /5 values/],
    ['35,north,5,20.5', /north 'north' is not a number/],
    ['35,48,5,0x10', /east '0x10' is not a number/],
    ['48,35,5,20.5', /south must be less than north/],
    ['35,48,20.5,5', /west must be less than east/],
    ['-95,48,5,20.5', /latitudes must lie in -90..90/],
    ['35,48,5,190', /longitudes must lie in -180..180/],
  ])('refuses %s with a clear message', (value, message) => {
    expect(() => domainFromEnv({ METEOPUNTO_DOMAIN: value })).toThrow(DomainConfigError);
    expect(() => domainFromEnv({ METEOPUNTO_DOMAIN: value })).toThrow(message);
    expect(() => domainFromEnv({ METEOPUNTO_DOMAIN: value })).toThrow(/METEOPUNTO_DOMAIN=.*expected <south>,<north>,<west>,<east>/);
  });

  it('decides the crop: the Jaén CAMS grid (357.05..357.35 E) lies outside the default box and inside a Spanish one', () => {
    const jaen = { kind: 'regular_ll' as const, nx: 4, ny: 3, x0: -2.95, y0: 38.05, dx: 0.1, dy: 0.1 };
    expect(cropWindow(jaen, ingestDomain({}))).toBeNull();
    expect(cropWindow(jaen, ingestDomain({ METEOPUNTO_DOMAIN: '36,44,-10,4.5' }))).toEqual({ i0: 0, j0: 0, nx: 4, ny: 3 });
  });
});
