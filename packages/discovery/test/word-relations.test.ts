import { describe, expect, it } from 'vitest';
import { stem } from '../src/planner/text.js';
import { hypernymLemmas, isAdjective, isVerb, relatedTerms } from '../src/planner/word-relations.js';

describe('relatedTerms (WordNet)', () => {
  it('relates synonyms more closely than broader words, and those more than definition words', () => {
    const picture = relatedTerms('picture');
    expect(picture.get(stem('image'))).toBeCloseTo(0.8);
    const song = relatedTerms('song');
    expect(song.get(stem('music'))).toBeGreaterThan(0.3);
    expect(song.get(stem('music'))).toBeLessThan(0.8);
  });

  it('reads inflected forms through their base form', () => {
    expect(relatedTerms('writers').get(stem('author'))).toBeCloseTo(0.8);
    expect(relatedTerms('circulating').size).toBeGreaterThan(0);
  });

  it('reads every definition of a word, not its examples, and an adverb of them as its adjective', () => {
    // `before`: "earlier in time; previously; "I had known her before"".
    const before = relatedTerms('before');
    expect(before.get(stem('previous'))).toBeGreaterThan(0);
    expect(before.has(stem('known'))).toBe(false);
  });

  it('knows nothing of identifiers and made-up words', () => {
    expect(relatedTerms('6e5f825c').size).toBe(0);
    expect(relatedTerms('qwzxv').size).toBe(0);
  });

  it('tells verbs and adjectives, and what a verb is a kind of', () => {
    expect(isVerb('suspend')).toBe(true);
    expect(isAdjective('private')).toBe(true);
    expect(isVerb('qwzxv')).toBe(false);
    expect(hypernymLemmas('erase')).toContain('remove');
  });
});
