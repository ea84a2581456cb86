import { describe, expect, it } from 'vitest';
import { OFFER_BUTTONS } from '../../common/coach-chat';
import { basicsPhrases, helpPhrases, notHelpPhrases } from '../../../tests/support/coach-phrases';
import { detectIntent } from './intents';

describe('help intents', () => {
  it.each(helpPhrases)('reads "%s" as a call for help', (phrase) => {
    expect(detectIntent(phrase, false)).toBe('help');
  });

  it.each(basicsPhrases)('reads "%s" as asking for the basics', (phrase) => {
    expect(detectIntent(phrase, false)).toBe('basics');
  });

  it.each(notHelpPhrases)('does not read "%s" as help', (phrase) => {
    expect(detectIntent(phrase, false)).toBe('other');
  });

  it('counts more than thirty help phrasings', () => {
    expect(helpPhrases.length + basicsPhrases.length).toBeGreaterThanOrEqual(30);
  });
});

describe('answers to an offer', () => {
  it.each(['yes', 'Yes!', 'yeah sure', 'ok', 'Okay', 'sure', "let's do it", 'yes please'])(
    'reads "%s" as accepting an open offer',
    (phrase) => {
      expect(detectIntent(phrase, true)).toBe('accept');
    },
  );

  it.each(['no', 'No.', 'nope', 'no thanks', 'not now', 'maybe later'])(
    'reads "%s" as declining an open offer',
    (phrase) => {
      expect(detectIntent(phrase, true)).toBe('decline');
    },
  );

  it('reads every offer button as accepting or declining it', () => {
    for (const labels of Object.values(OFFER_BUTTONS)) {
      expect(detectIntent(labels.accept, true)).toBe('accept');
      expect(detectIntent(labels.decline, true)).toBe('decline');
    }
  });

  it('reads a bare yes or no as an answer when nothing is offered', () => {
    expect(detectIntent('yes', false)).toBe('other');
    expect(detectIntent('no', false)).toBe('other');
  });

  it('still hears a call for help while an offer is open', () => {
    expect(detectIntent("I'm stuck", true)).toBe('help');
  });
});
