import { describe, expect, it } from 'vitest';
import { chosenLocationId, CONFLICTING_CHOICE } from './square.server.ts';

describe('chosenLocationId (the location form without JavaScript)', () => {
  it('takes the one value, ignoring empty ones', () => {
    expect(chosenLocationId(['L1', ''], null)).toEqual({ ok: true, id: 'L1' });
    expect(chosenLocationId(['', 'L2'], null)).toEqual({ ok: true, id: 'L2' });
    expect(chosenLocationId(['L1', 'L1'], 'L1')).toEqual({ ok: true, id: 'L1' });
  });

  it('takes the control that moved away from the current location', () => {
    expect(chosenLocationId(['L2', 'L1'], 'L1')).toEqual({ ok: true, id: 'L2' });
    expect(chosenLocationId(['L1', 'L3'], 'L1')).toEqual({ ok: true, id: 'L3' });
  });

  it('refuses nothing chosen and two different new choices', () => {
    expect(chosenLocationId([], null)).toEqual({ ok: false, message: 'Please choose a location.' });
    expect(chosenLocationId(['', ' '], null)).toEqual({ ok: false, message: 'Please choose a location.' });
    expect(chosenLocationId(['L2', 'L3'], 'L1')).toEqual({ ok: false, message: CONFLICTING_CHOICE });
    expect(chosenLocationId(['L2', 'L3'], null)).toEqual({ ok: false, message: CONFLICTING_CHOICE });
  });
});
