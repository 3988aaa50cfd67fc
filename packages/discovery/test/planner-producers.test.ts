import { describe, expect, it } from 'vitest';
import { planRoadmap } from '../src/index.js';
import { plannerIndexOf, route } from './helpers/plan-on-spec.js';

/**
 * Producers on a catalog of a domain no evaluation set covers (a kitchen): where the value an
 * action needs comes from when the requirement says which owner or which entity it is reached
 * through (`the top recipes of Gordon Ramsay`, `the ingredients of the recipe 'Pad Thai'`).
 */
const kitchenSpec = `
openapi: 3.0.3
info: { title: Kitchen, version: '1' }
paths:
  /search:
    get:
      operationId: search
      summary: Search for chefs, recipes or ingredients by name
      parameters:
        - { name: q, in: query, required: true, schema: { type: string } }
        - { name: type, in: query, required: true, schema: { type: string, enum: [chef, recipe, ingredient] } }
      responses:
        '200':
          description: matches
          content:
            application/json:
              schema:
                type: object
                properties:
                  chefs: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Chef' } } } }
                  recipes: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Recipe' } } } }
                  ingredients: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Ingredient' } } } }
  /me:
    get:
      operationId: getMe
      summary: Get the current user's profile
      responses:
        '200': { description: me, content: { application/json: { schema: { type: object, properties: { id: { type: string }, name: { type: string } } } } } }
  /me/stove/current:
    get:
      operationId: getCurrentDish
      summary: Get the recipe cooking on the stove now
      description: The recipe being cooked, with its ingredients, in the current user's kitchen.
      responses:
        '200': { description: dish, content: { application/json: { schema: { type: object, properties: { started_at: { type: string }, recipe: { $ref: '#/components/schemas/Recipe' } } } } } }
  /me/pantry:
    put:
      operationId: stockPantry
      summary: Stock ingredients in the current user's pantry
      parameters:
        - { name: ids, in: query, required: true, description: ingredient ids, schema: { type: string } }
      responses:
        '204': { description: stocked }
  /chefs/{id}:
    get:
      operationId: getChef
      summary: Get a chef
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: chef, content: { application/json: { schema: { $ref: '#/components/schemas/Chef' } } } }
  /chefs/{id}/recipes:
    get:
      operationId: getChefRecipes
      summary: Get a chef's recipes
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: recipes, content: { application/json: { schema: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Recipe' } } } } } } }
  /chefs/{id}/top-recipes:
    get:
      operationId: getChefTopRecipes
      summary: Get a chef's top recipes
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: recipes, content: { application/json: { schema: { type: object, properties: { recipes: { type: array, items: { $ref: '#/components/schemas/Recipe' } } } } } } }
  /recipes/{recipe_id}:
    get:
      operationId: getRecipe
      summary: Get a recipe
      parameters:
        - { name: recipe_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: recipe, content: { application/json: { schema: { $ref: '#/components/schemas/Recipe' } } } }
  /recipes/{recipe_id}/ingredients:
    get:
      operationId: getRecipeIngredients
      summary: Get the ingredients of a recipe
      parameters:
        - { name: recipe_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: ingredients, content: { application/json: { schema: { type: object, properties: { items: { type: array, items: { type: object, properties: { quantity: { type: string }, ingredient: { $ref: '#/components/schemas/Ingredient' } } } } } } } } }
  /users/{user_id}/menus:
    post:
      operationId: createMenu
      summary: Create a menu
      parameters:
        - { name: user_id, in: path, required: true, schema: { type: string } }
      requestBody:
        content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } }
      responses:
        '201': { description: menu, content: { application/json: { schema: { type: object, properties: { id: { type: string }, name: { type: string } } } } } }
  /menus/{menu_id}/recipes:
    post:
      operationId: addRecipesToMenu
      summary: Add recipes to a menu
      parameters:
        - { name: menu_id, in: path, required: true, schema: { type: string } }
        - { name: recipe_ids, in: query, required: true, description: recipe ids, schema: { type: string } }
      responses:
        '201': { description: added }
  /offers/expired:
    get:
      operationId: listExpiredOffers
      summary: List of expired offers
      responses:
        '200': { description: offers, content: { application/json: { schema: { type: array, items: { type: object, properties: { offer_id: { type: string }, ended_at: { type: string } } } } } } }
  /offers/expiring:
    get:
      operationId: listExpiringOffers
      summary: List of expiring offers
      responses:
        '200': { description: offers, content: { application/json: { schema: { type: array, items: { type: object, properties: { offer_id: { type: string }, ends_at: { type: string } } } } } } }
  /offers/{offer_id}/terms:
    get:
      operationId: getOfferTerms
      summary: Get the terms of an offer
      parameters:
        - { name: offer_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: terms, content: { application/json: { schema: { type: object, properties: { offer_id: { type: string }, text: { type: string } } } } } }
components:
  schemas:
    Chef:
      type: object
      properties: { id: { type: string }, name: { type: string } }
    Ingredient:
      type: object
      properties: { id: { type: string }, name: { type: string } }
    Recipe:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
        chef: { $ref: '#/components/schemas/Chef' }
        ingredients: { type: array, items: { $ref: '#/components/schemas/Ingredient' } }
`;

const kitchen = plannerIndexOf(kitchenSpec, 'kitchen');

describe('planRoadmap finding what an owner or an entity the requirement names holds', () => {
  it("takes a named owner's list whose every word the clause says, and finds the owner by name", () => {
    const roadmap = planRoadmap('Put the top recipes of Gordon Ramsay on a new menu named "Ramsay Night"', kitchen);
    const steps = roadmap.steps.map(route);
    expect(steps).toContain('GET /chefs/{id}/top-recipes');
    expect(steps).not.toContain('GET /chefs/{id}/recipes');
    expect(steps).not.toContain('GET /me/stove/current');
    expect(steps.indexOf('GET /search')).toBeLessThan(steps.indexOf('GET /chefs/{id}/top-recipes'));
    expect(steps.at(-1)).toBe('POST /menus/{menu_id}/recipes');
  });

  it('reads the values through the entity the requirement names, whose id it finds in turn', () => {
    const roadmap = planRoadmap("Stock all the ingredients of the recipe 'Pad Thai'", kitchen);
    expect(roadmap.steps.map(route)).toEqual(['GET /search', 'GET /recipes/{recipe_id}', 'PUT /me/pantry']);
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`).sort()).toEqual([
      '{{ResponseBinding.GetARecipe.body.ingredients[0].id}} → ids',
      '{{ResponseBinding.SearchForChefsRecipesOrIngredientsByName.body.recipes.items[0].id}} → recipe_id',
    ]);
  });

  it('finds the entity a phrase describes, not named, where the phrase says, not by a search', () => {
    const roadmap = planRoadmap('Stock all the ingredients of the recipe being cooked now', kitchen);
    expect(roadmap.steps.map(route)).toEqual(['GET /me/stove/current', 'GET /recipes/{recipe_id}', 'PUT /me/pantry']);
  });
});

describe('planRoadmap choosing a producer by the time its words speak of', () => {
  it('takes the list of what is under way for `that is expiring`, not the list of what is over', () => {
    const roadmap = planRoadmap('What are the terms of the first offer that is expiring?', kitchen);
    expect(roadmap.steps.map(route)).toEqual(['GET /offers/expiring', 'GET /offers/{offer_id}/terms']);
  });

  it('takes the list of what is over for `that expired`', () => {
    const roadmap = planRoadmap('What are the terms of the first offer that expired?', kitchen);
    expect(roadmap.steps.map(route)).toEqual(['GET /offers/expired', 'GET /offers/{offer_id}/terms']);
  });
});

/** A garden catalog: gardeners keep beds, beds hold plants, a seed box keeps plants too, and a search finds each by name. */
const gardenSpec = `
openapi: 3.0.3
info: { title: Garden, version: '1' }
paths:
  /search:
    get:
      operationId: search
      summary: Search for beds or plants by name
      parameters:
        - { name: q, in: query, required: true, schema: { type: string } }
      responses:
        '200':
          description: matches
          content:
            application/json:
              schema:
                type: object
                properties:
                  beds: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Bed' } } } }
                  plants: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Plant' } } } }
                  gardeners: { type: object, properties: { items: { type: array, items: { type: object, properties: { id: { type: string }, name: { type: string } } } } } }
  /me/beds:
    get:
      operationId: getMyBeds
      summary: Get the current user's garden beds
      responses:
        '200': { description: beds, content: { application/json: { schema: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Bed' } } } } } } }
  /me/seed-box:
    get:
      operationId: getMySeedBox
      summary: Get the plants saved in the current user's seed box
      responses:
        '200': { description: plants, content: { application/json: { schema: { type: object, properties: { items: { type: array, items: { type: object, properties: { saved_at: { type: string }, plant: { $ref: '#/components/schemas/Plant' } } } } } } } } }
    put:
      operationId: saveToSeedBox
      summary: Save plants to the current user's seed box
      parameters:
        - { name: plant_ids, in: query, required: true, description: plant ids, schema: { type: string } }
      responses:
        '204': { description: saved }
  /gardeners/{id}/beds:
    get:
      operationId: getGardenerBeds
      summary: Get a gardener's beds
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: beds, content: { application/json: { schema: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Bed' } } } } } } }
  /beds/{bed_id}:
    put:
      operationId: changeBed
      summary: Change a bed's details
      parameters:
        - { name: bed_id, in: path, required: true, schema: { type: string } }
      requestBody:
        content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } }
      responses:
        '200': { description: changed }
  /beds/{bed_id}/plants:
    get:
      operationId: getBedPlants
      summary: Get the plants in a bed
      parameters:
        - { name: bed_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: plants, content: { application/json: { schema: { type: object, properties: { items: { type: array, items: { type: object, properties: { planted_at: { type: string }, plant: { $ref: '#/components/schemas/Plant' } } } } } } } } }
    delete:
      operationId: removeBedPlants
      summary: Remove plants from a bed
      parameters:
        - { name: bed_id, in: path, required: true, schema: { type: string } }
        - { name: plant_ids, in: query, required: true, description: plant ids, schema: { type: string } }
      responses:
        '204': { description: removed }
components:
  schemas:
    Bed:
      type: object
      properties: { id: { type: string }, name: { type: string } }
    Plant:
      type: object
      properties: { id: { type: string }, name: { type: string } }
`;

const garden = plannerIndexOf(gardenSpec, 'garden');
const wiring = (roadmap: ReturnType<typeof planRoadmap>): string[] =>
  roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.step}.${binding.to.name}`).sort();

describe('planRoadmap removing items from an owner, and feeding what `it` stands for', () => {
  it('reads the items to remove from the owner they are removed from, by the same id', () => {
    const roadmap = planRoadmap('Remove everything from my first bed', garden);
    expect(roadmap.steps.map(route)).toEqual([
      'GET /me/beds',
      'GET /beds/{bed_id}/plants',
      'DELETE /beds/{bed_id}/plants',
    ]);
    expect(wiring(roadmap)).toEqual([
      '{{ResponseBinding.GetTheCurrentUsersGardenBeds.body.items[0].id}} → GetThePlantsInABed.bed_id',
      '{{ResponseBinding.GetTheCurrentUsersGardenBeds.body.items[0].id}} → RemovePlantsFromABed.bed_id',
      '{{ResponseBinding.GetThePlantsInABed.body.items[0].plant.id}} → RemovePlantsFromABed.plant_ids',
    ]);
    expect(roadmap.inputs).toEqual([]);
  });

  it('feeds `it` of a later clause from the step that answered the entity it stands for', () => {
    const roadmap = planRoadmap("Remove everything from my first bed and rename it as 'Herbs'", garden);
    expect(roadmap.steps.map(route)).not.toContain('GET /search');
    expect(wiring(roadmap)).toContain(
      '{{ResponseBinding.GetTheCurrentUsersGardenBeds.body.items[0].id}} → ChangeABedsDetails.bed_id',
    );
  });
});

describe('planRoadmap picking an item by its order from what an owner holds', () => {
  it("reads the first plant of a named gardener's newest bed from that bed's list, not from the caller's own", () => {
    const roadmap = planRoadmap("Save the first plant in Monty Don's newest bed to my seed box", garden);
    expect(roadmap.steps.map(route)).toEqual([
      'GET /search',
      'GET /gardeners/{id}/beds',
      'GET /beds/{bed_id}/plants',
      'PUT /me/seed-box',
    ]);
  });
});
