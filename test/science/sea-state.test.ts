import { describe, expect, it } from 'vitest';
import { seaState } from '../../science/index.js';

describe('seaState (WMO 3700)', () => {
  it('assigns the exact bounding height to the lower code (WMO note 2: 4 m is coded 5)', () => {
    expect(seaState(4)!.code).toBe(5);
    expect(seaState(4.01)!.code).toBe(6);
    expect(seaState(0)).toEqual({ code: 0, label: 'calmo', id: 'calm_glassy' });
    expect(seaState(0.01)!.code).toBe(1);
    expect(seaState(14)!.label).toBe('molto grosso');
    expect(seaState(20)!.label).toBe('tempestoso');
  });

  it('returns null for missing or negative heights', () => {
    expect(seaState(NaN)).toBeNull();
    expect(seaState(-0.1)).toBeNull();
  });
});
