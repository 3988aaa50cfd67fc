import { describe, expect, it } from 'vitest';
import { planRoadmap } from '../src/index.js';
import type { EndpointProfile } from '../src/planner/endpoint-profile.js';
import { saysPhrase } from '../src/planner/phrase-evidence.js';
import { qualifiedAction } from '../src/planner/qualified-actions.js';
import { secondHopInCatalog, type RankedEndpoint } from '../src/planner/rank-endpoints.js';
import { parseRequirement } from '../src/planner/parse-requirement.js';
import { requirementVocabulary } from '../src/planner/requirement-vocabulary.js';
import { singular, stem } from '../src/planner/text.js';
import { plannerIndexOf } from './helpers/plan-on-spec.js';

/**
 * A cookbook service's catalog, written here: what a cook saved, what they rate highest, and an
 * oven that bakes. Its descriptions say what its summaries do not (`top recipes`, `cookbook`).
 */
const spec = `
openapi: 3.0.3
info: { title: Cookbook, version: '1' }
paths:
  /me:
    get:
      summary: Get Current Cook's Profile
      responses:
        '200': { description: the cook, content: { application/json: { schema: { $ref: '#/components/schemas/Cook' } } } }
  /me/recipes:
    get:
      summary: Get Cook's Saved Recipes
      description: Get a list of the recipes saved in the current cook's personal cookbook.
      responses:
        '200': { description: recipes, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Recipe' } } } } }
    put:
      summary: Save Recipes for Current Cook
      description: Save one or more recipes to the current cook's personal cookbook.
      parameters:
        - { name: ids, in: query, required: true, schema: { type: string } }
      responses:
        '200': { description: saved }
  /me/following:
    get:
      summary: Get Followed Chefs
      description: Get the current cook's followed chefs.
      responses:
        '200': { description: chefs, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Chef' } } } } }
  /me/top/{kind}:
    get:
      summary: Get Cook's Top Items
      description: Get the current cook's top chefs or recipes based on their ratings.
      parameters:
        - { name: kind, in: path, required: true, schema: { type: string, enum: [chefs, recipes] } }
      responses:
        '200': { description: items, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Chef' } } } } }
  /chefs/{chef_id}:
    get:
      summary: Get Chef
      parameters:
        - { name: chef_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the chef, content: { application/json: { schema: { $ref: '#/components/schemas/Chef' } } } }
  /restaurants/{restaurant_id}/menu:
    get:
      summary: Get a restaurant's menu
      parameters:
        - { name: restaurant_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the menu, content: { application/json: { schema: { $ref: '#/components/schemas/Menu' } } } }
  /chefs/{chef_id}/recipes:
    get:
      summary: Get Chef's Recipes
      parameters:
        - { name: chef_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: recipes, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Recipe' } } } } }
  /chefs/{chef_id}/related-chefs:
    get:
      summary: Get Chef's Related Chefs
      description: Get chefs whose cooking is similar to a given chef's.
      parameters:
        - { name: chef_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: chefs, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Chef' } } } } }
  /search:
    get:
      summary: Search for Item
      description: Get chefs, recipes or ingredients that match a keyword.
      parameters:
        - { name: q, in: query, required: true, schema: { type: string } }
      responses:
        '200': { description: found, content: { application/json: { schema: { $ref: '#/components/schemas/Found' } } } }
  /menus/latest:
    get:
      summary: Latest menu
      description: Return the latest menu.
      responses:
        '200': { description: the menu, content: { application/json: { schema: { $ref: '#/components/schemas/Menu' } } } }
  /menus/{menu_id}:
    get:
      summary: Specific menu
      parameters:
        - { name: menu_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the menu, content: { application/json: { schema: { $ref: '#/components/schemas/Menu' } } } }
  /menus:
    get:
      summary: List menus
      responses:
        '200': { description: menus, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Menu' } } } } }
  /menus/{menu_id}/dishes:
    get:
      summary: Dishes of a menu
      parameters:
        - { name: menu_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: dishes, content: { application/json: { schema: { type: array, items: { type: string } } } } }
  /clock:
    get:
      summary: Current time of the menu
      description: The current time, in menu hours.
      responses:
        '200': { description: the time, content: { application/json: { schema: { type: object, properties: { menu_hour: { type: integer } } } } } }
  /recipes/{recipe_id}:
    get:
      summary: Get Recipe
      parameters:
        - { name: recipe_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the recipe, content: { application/json: { schema: { $ref: '#/components/schemas/Recipe' } } } }
  /me/oven:
    get:
      summary: Get Oven State
      description: Get the recipe the cook's oven is currently baking.
      responses:
        '200': { description: the oven, content: { application/json: { schema: { $ref: '#/components/schemas/Oven' } } } }
  /me/oven/pause:
    put:
      summary: Pause Oven
      description: Pause the cook's oven.
      responses:
        '204': { description: paused }
  /me/oven/bake:
    put:
      summary: Start/Resume Oven
      description: Start baking a recipe or resume baking in the cook's oven.
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties: { recipe_uri: { type: string } }
      responses:
        '204': { description: baking }
components:
  schemas:
    Cook:
      type: object
      properties: { id: { type: string }, name: { type: string } }
    Chef:
      type: object
      properties: { id: { type: string }, name: { type: string }, restaurant: { type: string } }
    Recipe:
      type: object
      properties: { id: { type: string }, title: { type: string } }
    Menu:
      type: object
      properties: { id: { type: string }, dishes: { type: array, items: { type: string } } }
    Found:
      type: object
      properties:
        chefs: { type: array, items: { $ref: '#/components/schemas/Chef' } }
        recipes: { type: array, items: { $ref: '#/components/schemas/Recipe' } }
    Oven:
      type: object
      properties: { is_baking: { type: boolean }, recipe: { $ref: '#/components/schemas/Recipe' } }
`;

const index = plannerIndexOf(spec, 'cookbook');
const requested = (requirement: string): string[] =>
  planRoadmap(requirement, index)
    .steps.filter((step) => step.role === 'requested')
    .map((step) => `${step.method} ${step.path}`);

describe('planRoadmap matches a describing word the catalog says with another word', () => {
  it('reaches the catalog through a word near a describing word (`favorite` → `best` → `top`)', () => {
    const reached = new Map(secondHopInCatalog(index, stem('favorite'), 'favorite'));
    expect(reached.get('top')).toBeGreaterThan(0.3);
    // A word the catalog knows, and a verb's participle, reach nothing further.
    expect(secondHopInCatalog(index, 'top', 'top')).toEqual([]);
    expect(secondHopInCatalog(index, stem('earned'), 'earned')).toEqual([]);
  });

  it("answers `my favorite chef` with the cook's top items, not the chefs they follow", () => {
    expect(requested('Who is my favorite chef?')).toEqual(['GET /me/top/{kind}']);
  });
});

describe('planRoadmap reads a participle phrase after a noun as saying which one', () => {
  it('reads the phrase of a write as qualifying its object, not as its action', () => {
    const [clause] = parseRequirement('Put the dish now being baked into my cookbook', requirementVocabulary(index));
    expect(clause?.modifiers).toEqual(expect.arrayContaining([stem('now'), stem('baked')]));
    // A read is often named by such a phrase: its words stay its own.
    const [read] = parseRequirement('Show the recipe now being baked', requirementVocabulary(index));
    expect(read?.modifiers).toEqual([]);
  });

  it('saves the dish the oven is baking instead of baking it', () => {
    const roadmap = planRoadmap('Put the dish now being baked into my cookbook', index);
    expect(
      roadmap.steps.filter((step) => step.role === 'requested').map((step) => `${step.method} ${step.path}`),
    ).toEqual(['PUT /me/recipes']);
  });
});

describe("planRoadmap takes a lone write's best endpoint", () => {
  it('takes the best endpoint whose method fits the verb of a requirement that asks for one write, however weak', () => {
    expect(requested('Put the soup into the cookbook')).toEqual(['PUT /me/recipes']);
  });
});

describe('qualifiedAction keeps what the verb asks', () => {
  const candidates = (...ids: string[]): RankedEndpoint[] =>
    ids.map((id) => ({
      profile: index.profiles.find((profile) => `${profile.endpoint.method} ${profile.endpoint.path}` === id)!,
      score: 0.3,
      matched: [],
      reasons: [],
    }));

  it('does not put a read that takes the qualified entity in the place of a write', () => {
    const [write] = parseRequirement('Save the recipe of the chef I follow', requirementVocabulary(index));
    expect(qualifiedAction(index, write!, candidates('PUT /me/oven/bake', 'GET /recipes/{recipe_id}'))).toBeUndefined();
  });

  it('still reads the qualified entity for a read', () => {
    const [read] = parseRequirement('Show the recipe of the chef I follow', requirementVocabulary(index));
    expect(qualifiedAction(index, read!, candidates('GET /me/oven', 'GET /recipes/{recipe_id}'))).toBe(1);
  });
});

describe('planRoadmap weighs a describing word said with its noun', () => {
  const profile = (id: string): EndpointProfile =>
    index.profiles.find((candidate) => `${candidate.endpoint.method} ${candidate.endpoint.path}` === id)!;
  const near = (term: string): ReadonlySet<string> => new Set([term, ...(term === 'current' ? ['latest'] : [])]);

  it('finds a describing word and its noun side by side, the word or one near it', () => {
    const [clause] = parseRequirement('What is the current menu?', requirementVocabulary(index));
    expect(saysPhrase(clause!, profile('GET /menus/latest'), near)).toBe(true);
    expect(saysPhrase(clause!, profile('GET /clock'), near)).toBe(false);
    // Two nouns side by side (`chef recipes`) are no describing word with its noun.
    const [nouns] = parseRequirement('Show the chef recipes', requirementVocabulary(index));
    expect(saysPhrase(nouns!, profile('GET /chefs/{chef_id}/recipes'), (term) => new Set([term]))).toBe(false);
  });

  it('takes the endpoint that says the phrase over one that says each word apart', () => {
    expect(requested('What is the current menu?')).toEqual(['GET /menus/latest']);
  });
});

describe('planRoadmap checks a condition before the action', () => {
  it('reads `… if …` as a check of its own, made first', () => {
    const clauses = parseRequirement('Pause my oven if the oven is baking', requirementVocabulary(index));
    expect(clauses.map((clause) => [clause.text, clause.intent])).toEqual([
      ['the oven is baking', 'read'],
      ['Pause my oven', 'update'],
    ]);
  });

  it("reads a condition's pronoun as what the action speaks of, only saying whose state it asks about", () => {
    const [check] = parseRequirement('Show recipe 12 if it is saved', requirementVocabulary(index));
    expect(check?.inherited).toEqual([stem(singular('recipe'))]);
    expect(check?.modifiers).toContain(stem(singular('recipe')));
  });

  it('plans the read that checks the state before the action', () => {
    expect(
      planRoadmap('Pause my oven if the oven is baking', index).steps.map((step) => `${step.method} ${step.path}`),
    ).toEqual(['GET /me/oven', 'PUT /me/oven/pause']);
  });
});

describe('planRoadmap reads the fields asked of an entity as asked of it', () => {
  const requirement = 'Show the name and restaurant of the chef that baked recipe 12';

  it("keeps the entity whose answer holds the fields asked (a chef's `restaurant`) as what the clause asks for", () => {
    const [clause] = parseRequirement(requirement, requirementVocabulary(index));
    expect(clause?.modifiers).not.toContain('chef');
    expect(clause?.modifiers).toContain(stem('baked'));
  });

  it("reads the chef, not the restaurant the chef's answer names", () => {
    expect(requested(requirement)).toEqual(['GET /chefs/{chef_id}']);
  });
});
