/** Words that carry no meaning in a flow name: `create a customer and ship it` → `create-customer-ship`. */
const FILLER = new Set([
  'a',
  'an',
  'the',
  'and',
  'then',
  'it',
  'them',
  'its',
  'their',
  'of',
  'for',
  'to',
  'with',
  'my',
  'our',
  'some',
  'that',
  'this',
  'please',
  'i',
  'we',
  'want',
]);
const MAX_NAME_WORDS = 8;
const MAX_NAME_LENGTH = 60;
export const MAX_TITLE_LENGTH = 80;
export const DEFAULT_FLOW_NAME = 'scaffolded-flow';

function asciiWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/**
 * A flow name read from a requirement: its meaningful words in kebab-case, at most 8 words and
 * 60 characters, cut at a word.
 * @example flowNameFor('Create a customer, place an order and ship it') // 'create-customer-place-order-ship'
 */
export function flowNameFor(requirement: string): string {
  const words = asciiWords(requirement);
  const meaningful = words.filter((word) => !FILLER.has(word));
  let name = '';
  for (const word of (meaningful.length > 0 ? meaningful : words).slice(0, MAX_NAME_WORDS)) {
    const next = name === '' ? word.slice(0, MAX_NAME_LENGTH) : `${name}-${word}`;
    if (next.length > MAX_NAME_LENGTH) break;
    name = next;
  }
  return name === '' ? DEFAULT_FLOW_NAME : name;
}

/**
 * A frame title: the requirement on one line, cut at a word with `…` past 80 characters.
 * @example frameTitleFor('  Ship   the order ') // 'Ship the order'
 */
export function frameTitleFor(requirement: string): string {
  const line = requirement.replace(/\s+/g, ' ').trim();
  if (line.length <= MAX_TITLE_LENGTH) return line;
  const cut = line.slice(0, MAX_TITLE_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space >= MAX_TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.\-–]+$/, '')}…`;
}
