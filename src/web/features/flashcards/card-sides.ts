/** A card's two sides and what the server accepts for them (decision 0160: 20,000 characters). */

export const CARD_SIDE_MAX = 20_000;

export interface CardSides {
  front: string;
  back: string;
}

/** What is wrong with the sides, per side, in the words the form shows. */
export function checkSides(sides: CardSides): Partial<Record<keyof CardSides, string>> {
  const problems: Partial<Record<keyof CardSides, string>> = {};
  for (const side of ['front', 'back'] as const) {
    const value = sides[side].trim();
    if (!value) problems[side] = `Write the ${side} of the card.`;
    else if (value.length > CARD_SIDE_MAX)
      problems[side] =
        `The ${side} is ${value.length.toLocaleString('en-GB')} characters; at most ${CARD_SIDE_MAX.toLocaleString('en-GB')}.`;
  }
  return problems;
}
