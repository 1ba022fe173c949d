import { describe, expect, it } from 'vitest';
import { checkDecimal, checkTimestamp, decimalValue, parseUtcDateTime } from '../../../api/validation/strict-query.js';
import { mulberry32 } from '../../../bench/prng.js';

describe('strict decimal parameters', () => {
  it.each(['45', '-3.5', '+12', '.5', '12.', '4.5e1', '4.5E+1', '0'])('accepts %s', (raw) => {
    expect(checkDecimal('lat', raw)).toBeNull();
  });

  it.each([
    ['NaN', 'not a decimal number'],
    ['Infinity', 'not a decimal number'],
    ['-Infinity', 'not a decimal number'],
    ['1e999', 'not a finite number'],
    ['', 'empty'],
    ['12abc', 'not a decimal number'],
    ['0x1f', 'not a decimal number'],
    [' 42', 'not a decimal number'],
    ['45,5', 'use a dot'],
    ['1_000', 'not a decimal number'],
    ['--1', 'not a decimal number'],
    ['e5', 'not a decimal number'],
  ])('rejects %j naming the parameter', (raw, reason) => {
    const err = checkDecimal('lat', raw);
    expect(err?.status).toBe(400);
    expect(err?.code).toBe('INVALID_PARAMETER');
    expect(err?.message).toContain("'lat'");
    expect(err?.message).toContain(reason);
  });

  it('rejects a parameter given twice', () => {
    expect(checkDecimal('lon', ['1', '2'])?.message).toBe("Invalid parameter 'lon': given more than once");
  });

  it('shortens long echoed values', () => {
    expect(checkDecimal('alt', 'x'.repeat(10_000))!.message.length).toBeLessThan(120);
  });
});

describe('ISO 8601 timestamps (UTC)', () => {
  it.each([
    ['2024-07-01T12:00', Date.UTC(2024, 6, 1, 12, 0)],
    ['2024-07-01T12:00Z', Date.UTC(2024, 6, 1, 12, 0)],
    ['2024-07-01T12:00:30', Date.UTC(2024, 6, 1, 12, 0, 30)],
    ['1920-01-01T00:00:00.5Z', Date.UTC(1920, 0, 1, 0, 0, 0, 500)],
    ['2024-02-29T00:00', Date.UTC(2024, 1, 29)],
  ])('parses %s', (raw, ms) => {
    expect(parseUtcDateTime(raw)).toBe(ms);
    expect(checkTimestamp('time', raw)).toBeNull();
  });

  it.each(['2023-02-29T00:00', '2024-13-01T00:00', '2024-07-01', '2024-07-01T25:00', '2024-07-01T12:00+02:00', 'yesterday', ''])('rejects %j', (raw) => {
    expect(checkTimestamp('time', raw)?.message).toContain("'time'");
  });
});

describe('a plain decimal read once', () => {
  const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
  const want = (s: string) => (DECIMAL.test(s) ? Number(s) : NaN);

  it.each(['45', '-3.5', '+12', '.5', '12.', '4.5e1', '4.5E+1', '0', '-0', '-0.0', '45.1234', '0045.50', '9007199254740993', '900719925474099.3', '0.1234567890123456789012', '1e999', '1e-400'])(
    'reads %s as Number does',
    (raw) => expect(Object.is(decimalValue(raw), Number(raw))).toBe(true),
  );

  it.each(['', '+', '-', '.', '-.', 'e5', '1e', '1e+', '0x1f', ' 42', '42 ', '45,5', '1_000', '--1', 'NaN', 'Infinity', '٣'])('gives NaN for %j', (raw) => {
    expect(decimalValue(raw)).toBeNaN();
  });

  it('agrees with the grammar and Number on coordinates and random strings', () => {
    const next = mulberry32(7);
    const chars = '0123456789.+-eE x';
    for (let i = 0; i < 50_000; i++) {
      const v = (next() - 0.5) * 10 ** Math.floor(next() * 8 - 2);
      for (const s of [v.toFixed(4), v.toFixed(Math.floor(next() * 23)), String(v)]) expect(Object.is(decimalValue(s), want(s))).toBe(true);
      let r = '';
      for (let j = 1 + Math.floor(next() * 10); j > 0; j--) r += chars[Math.floor(next() * (next() < 0.8 ? 10 : chars.length))];
      const got = decimalValue(r);
      if (!Object.is(got, want(r))) expect([r, got]).toEqual([r, want(r)]);
    }
  });
});
