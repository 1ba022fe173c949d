/**
 * What `time=` is told when it cannot be answered: below Business, a forecast
 * hour is refused as what it is (choosing the valid time), not as history;
 * a year no reanalysis covers, with only the forecast published, says that
 * history for that year is absent as well as the forecast's range.
 */
import { describe, expect, it } from 'vitest';
import { HOUR_MS, T0_MS, keyedInject, mainFixtureApp } from './tile-fixture.js';

const W = '/api/v1/weather.php?lat=43.1&lon=11.2';
/** An hour inside the fixture's forecast (T0 .. T0 + 24 h), after the fixture's now (T0 + 10 h). */
const LATER = new Date(T0_MS + 20 * HOUR_MS).toISOString().slice(0, 16);

describe('time= refusals', () => {
  for (const plan of ['free', 'developer'] as const) {
    describe(`${plan} key`, () => {
      const fixture = mainFixtureApp(plan);

      it('a forecast hour is 403 saying time= needs Business, not that it is historical', async () => {
        expect((await keyedInject(fixture.app(), W)).statusCode).toBe(200);
        const res = await keyedInject(fixture.app(), `${W}&time=${LATER}`);
        expect(res.statusCode).toBe(403);
        const { code, message } = res.json().error;
        expect(code).toBe('PLAN_REQUIRED');
        expect(message).toMatch(/^time: .*Business plan/);
        expect(message).toContain(`this key: ${plan === 'free' ? 'Free' : 'Developer'}`);
        expect(message).not.toMatch(/histor/i);
        expect(message).toMatch(/forecast/);
      });
    });
  }

  describe('business key, forecast only (no reanalysis published)', () => {
    const fixture = mainFixtureApp('business');

    it('a forecast hour is answered', async () => {
      const res = await keyedInject(fixture.app(), `${W}&time=${LATER}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().valid_time).toBe(`${LATER}:00.000Z`);
    });

    it('1950 is 404 saying history for 1950 is not available, beside the forecast range', async () => {
      const res = await keyedInject(fixture.app(), `${W}&time=1950-06-01T12:00`);
      expect(res.statusCode).toBe(404);
      const { message } = res.json().error;
      expect(message).toContain('nwp data covers 2024-06-21T00:00');
      expect(message).toContain('history for 1950 is not available: no reanalysis is published for 1950');
    });

    it('after the forecast: the range only, no word of history', async () => {
      const res = await keyedInject(fixture.app(), `${W}&time=2024-06-25T00:00`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).not.toMatch(/histor|reanalysis/);
    });
  });
});
