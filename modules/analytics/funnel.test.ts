import { describe, expect, it } from 'vitest';
import { formPostEvents, parseFunnelEvent, stepName } from './funnel.ts';

describe('funnel steps', () => {
  it('a first post counts the start; each section once, the first time it is reached', () => {
    expect(formPostEvents(0, 2)).toEqual({ events: [{ step: 'start' }, { step: 'section', section: 2 }], progress: 2 });
    expect(formPostEvents(0, 1)).toEqual({ events: [{ step: 'start' }], progress: 1 });
    expect(formPostEvents(2, 3)).toEqual({ events: [{ step: 'section', section: 3 }], progress: 3 });
    // Back, then Continue again: nothing new.
    expect(formPostEvents(3, 2)).toEqual({ events: [], progress: 3 });
    expect(formPostEvents(3, 3)).toEqual({ events: [], progress: 3 });
  });

  it('beacon bodies: start, or a section from 2 to the survey’s last', () => {
    expect(parseFunnelEvent({ step: 'start' }, 3)).toEqual({ step: 'start' });
    expect(parseFunnelEvent({ step: 'section', section: 3 }, 3)).toEqual({ step: 'section', section: 3 });
    for (const bad of [{ step: 'section', section: 1 }, { step: 'section', section: 4 }, { step: 'section', section: 2.5 }, { step: 'section', section: '2' }, { step: 'view' }, {}]) {
      expect(parseFunnelEvent(bad, 3)).toBeNull();
    }
    expect(stepName({ step: 'section', section: 2 })).toBe('section:2');
    expect(stepName({ step: 'view' })).toBe('view');
  });
});
