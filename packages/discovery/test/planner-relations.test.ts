import { describe, expect, it } from 'vitest';
import { planRoadmap } from '../src/index.js';
import { parseRequirement } from '../src/planner/parse-requirement.js';
import { sameFamily } from '../src/planner/relation-words.js';
import { requirementVocabulary } from '../src/planner/requirement-vocabulary.js';
import { plannerIndexOf, route } from './helpers/plan-on-spec.js';

/**
 * How entities relate on a catalog of a domain no evaluation set covers (a lending library): the
 * verbs, role nouns and value forms a requirement uses to say which entity it means, read from the
 * catalog's own paths, fields and examples.
 */
const librarySpec = `
openapi: 3.0.3
info: { title: Library, version: '1' }
paths:
  /members/{member_id}:
    get:
      operationId: getMember
      summary: Get a member and the branch they visit
      parameters:
        - { name: member_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the member, content: { application/json: { schema: { type: object, properties: { id: { type: string }, name: { type: string }, branch_id: { type: string } } } } } }
  /members/{member_id}/reviews:
    get:
      operationId: listMemberReviews
      summary: Reviews written by a member
      parameters:
        - { name: member_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: reviews, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string }, book_id: { type: string, example: bk_1c2d3 }, stars: { type: integer } } } } } } }
  /members/{member_id}/renewals:
    get:
      operationId: listMemberRenewals
      summary: Renewals of a member
      parameters:
        - { name: member_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: renewals, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string }, book_id: { type: string }, renewed_at: { type: string } } } } } } }
  /books/{book_id}/renewals:
    get:
      operationId: listBookRenewals
      summary: Renewals of a book
      parameters:
        - { name: book_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: renewals, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string }, member_id: { type: string }, renewed_at: { type: string } } } } } } }
  /members/{member_id}/reservations:
    get:
      operationId: listMemberReservations
      summary: Reservations of a member
      parameters:
        - { name: member_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: reservations, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string }, book_id: { type: string }, reserved_at: { type: string } } } } } } }
  /members/{member_id}/visits:
    get:
      operationId: listMemberVisits
      summary: Visits of a member
      parameters:
        - { name: member_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: visits, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string }, branch_id: { type: string }, at: { type: string } } } } } } }
  /books/{book_id}:
    get:
      operationId: getBook
      summary: Book details
      parameters:
        - { name: book_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the book, content: { application/json: { schema: { type: object, properties: { id: { type: string }, title: { type: string }, shelf: { type: string } } } } } }
  /newsletters/latest:
    get:
      operationId: getLatestNewsletter
      summary: The latest newsletter
      responses:
        '200':
          description: the newsletter
          content:
            application/json:
              schema: { type: object, properties: { id: { type: string }, issued_at: { type: string }, featured: { type: string, example: bk_77aa1 } } }
  /shelves/{shelf_id}:
    get:
      operationId: getShelf
      summary: Get a shelf
      parameters:
        - { name: shelf_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the shelf, content: { application/json: { schema: { type: object, properties: { id: { type: string }, floor: { type: integer } } } } } }
  /shelves/{shelf_id}/titles:
    get:
      operationId: listShelfTitles
      summary: Titles on a shelf
      parameters:
        - { name: shelf_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: titles, content: { application/json: { schema: { type: array, items: { type: object, properties: { title: { type: string }, shelf: { type: string } } } } } } }
  /books/{book_id}/reviewers:
    get:
      operationId: listBookReviewers
      summary: Reviewers of a book
      parameters:
        - { name: book_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: reviewers, content: { application/json: { schema: { type: array, items: { type: object, properties: { member_id: { type: string, example: mbr_7f2a }, stars: { type: integer } } } } } } }
  /books/{book_id}/borrowers:
    get:
      operationId: listBookBorrowers
      summary: People who borrowed a book
      parameters:
        - { name: book_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: borrowers, content: { application/json: { schema: { type: array, items: { type: object, properties: { member_id: { type: string }, at: { type: string } } } } } } }
  /lns/{hash}:
    get:
      operationId: getLoan
      summary: Specific loan
      parameters:
        - { name: hash, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the loan, content: { application/json: { schema: { type: object, properties: { hash: { type: string }, due: { type: string }, last_ln_hash: { type: string } } } } } }
  /branches/{branch_id}/hours:
    get:
      operationId: getBranchHours
      summary: Opening hours of a branch
      parameters:
        - { name: branch_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the hours, content: { application/json: { schema: { type: object, properties: { opens: { type: string }, closes: { type: string } } } } } }
`;

const library = plannerIndexOf(librarySpec, 'library');

describe('planRoadmap choosing a producer by the verb that relates two entities', () => {
  it('takes the list the verb names (`renews` → renewals, `reserves` → reservations)', () => {
    expect(planRoadmap("Member m-17 renews a book: show that book's details", library).steps.map(route)).toEqual([
      'GET /members/{member_id}/renewals',
      'GET /books/{book_id}',
    ]);
    expect(planRoadmap("Member m-17 reserves a book: show that book's details", library).steps.map(route)).toEqual([
      'GET /members/{member_id}/reservations',
      'GET /books/{book_id}',
    ]);
  });

  it("keeps the given entity's own field when it names the entity (`the branch that member m-17 visits`)", () => {
    const roadmap = planRoadmap('Show the opening hours of the branch that member m-17 visits', library);
    expect(roadmap.steps.map(route)).toEqual(['GET /members/{member_id}', 'GET /branches/{branch_id}/hours']);
  });

  it('relates a verb to the nouns derived from it, in either direction', () => {
    expect(sameFamily('renews', 'renewals')).toBe(true);
    expect(sameFamily('reservations', 'reserves')).toBe(true);
    expect(sameFamily('reserves', 'reviews')).toBe(false);
  });
});

describe('planRoadmap linking a field to an input by the form of its values', () => {
  it("reads a field whose examples have the form of the catalog's book ids as a book id (`featured: bk_…`)", () => {
    const roadmap = planRoadmap('Show the details of the book featured in the latest newsletter', library);
    expect(roadmap.steps.map(route)).toEqual(['GET /newsletters/latest', 'GET /books/{book_id}']);
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`)).toEqual([
      '{{ResponseBinding.TheLatestNewsletter.body.featured}} → book_id',
    ]);
  });

  it('answers fields of the entity a phrase picks (`the title and shelf of the book featured in …`)', () => {
    // `Titles on a shelf` matches `title` and `shelf` best, but reads no book; the book's answer has both fields.
    const roadmap = planRoadmap('Give the title and shelf of the book featured in the latest newsletter', library);
    expect(roadmap.steps.map(route)).toEqual(['GET /newsletters/latest', 'GET /books/{book_id}']);
  });
});

describe('planRoadmap reading a value by its form', () => {
  it("fills an input with a value no noun names when it has the form of the catalog's examples (`mbr_…`)", () => {
    const roadmap = planRoadmap('Show the renewals of mbr_88c1', library);
    expect(roadmap.steps.map(route)).toEqual(['GET /members/{member_id}/renewals']);
    expect(roadmap.inputs).toMatchObject([{ name: 'memberId', example: 'mbr_88c1' }]);
  });

  it("takes the candidate whose input has the value's form, when the words match others alike", () => {
    // `Renewals of a member` matches `renewals` as well and ranks first; `bk_1c2d3` has a book id's form.
    const roadmap = planRoadmap('Show the renewals of bk_1c2d3', library);
    expect(roadmap.steps.map(route)).toEqual(['GET /books/{book_id}/renewals']);
    expect(roadmap.inputs).toMatchObject([{ name: 'bookId', example: 'bk_1c2d3' }]);
  });
});

describe('planRoadmap reading the one entity a phrase picks', () => {
  it('reads the entity itself when nothing else is asked of it (`the member of the first reviewer of book b-12`)', () => {
    // `Reviews written by a member` matches `member` and `review` too, but the clause asks for the member.
    const roadmap = planRoadmap('Show the member of the first reviewer of book b-12', library);
    expect(roadmap.steps.map(route)).toEqual(['GET /books/{book_id}/reviewers', 'GET /members/{member_id}']);
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`)).toEqual([
      '{{ResponseBinding.ReviewersOfABook.body[0].member_id}} → member_id',
    ]);
  });

  it('keeps a list when the clause asks for many (`the members who borrowed book b-12`)', () => {
    const roadmap = planRoadmap('Show the members who borrowed book b-12', library);
    expect(roadmap.steps.map(route)).toEqual(['GET /books/{book_id}/borrowers']);
  });

  it("reads a field's abbreviation as the entity the paths abbreviate alike (`ln_hash` of `/lns/{hash}`)", () => {
    const loan = library.profiles.find((profile) => profile.endpoint.path === '/lns/{hash}');
    expect(loan?.offers.find((offer) => offer.name === 'last_ln_hash')?.refers).toBe('loan');
  });
});

/** A recipes site: recipes name their author by user name; a user is read by that name. */
const recipesSpec = `
openapi: 3.0.3
info: { title: Recipes, version: '1' }
paths:
  /recipes/{recipe_id}:
    get:
      operationId: getRecipe
      summary: Get a recipe
      parameters:
        - { name: recipe_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the recipe, content: { application/json: { schema: { type: object, properties: { id: { type: string }, title: { type: string }, user_id: { type: integer }, username: { type: string } } } } } }
  /recipes/{recipe_id}/comments:
    get:
      operationId: listRecipeComments
      summary: Comments on a recipe
      parameters:
        - { name: recipe_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: comments, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string }, text: { type: string } } } } } } }
  /recipes/popular:
    get:
      operationId: listPopularRecipes
      summary: Popular recipes
      responses:
        '200': { description: recipes, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string }, title: { type: string } } } } } } }
  /u/{username}:
    get:
      operationId: getUser
      summary: Get a single user by username
      parameters:
        - { name: username, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the user, content: { application/json: { schema: { type: object, properties: { id: { type: integer }, username: { type: string }, bio: { type: string } } } } } }
  /me/saved:
    get:
      operationId: listBookmarks
      summary: Get the recipes I saved
      responses:
        '200': { description: recipes, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string }, title: { type: string } } } } } } }
    delete:
      operationId: removeBookmarks
      summary: Remove recipes from my saved list
      parameters:
        - { name: ids, in: query, required: true, schema: { type: string } }
      responses:
        '204': { description: removed }
  /latest:
    get:
      operationId: getLatest
      summary: Get the latest recipes
      responses:
        '200': { description: recipes and their cooks, content: { application/json: { schema: { type: object, properties: { recipes: { type: array, items: { type: object, properties: { id: { type: string }, title: { type: string } } } }, users: { type: array, items: { type: object, properties: { id: { type: integer }, username: { type: string } } } } } } } } }
  /comments:
    get:
      operationId: listLatestComments
      summary: Get latest comments
      responses:
        '200': { description: comments, content: { application/json: { schema: { type: object, properties: { latest_comments: { type: array, items: { type: object, properties: { id: { type: integer }, text: { type: string }, username: { type: string } } } } } } } } }
  /user-awards/{username}:
    get:
      operationId: listUserAwards
      summary: List the awards of a user
      parameters:
        - { name: username, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: awards, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: integer }, name: { type: string } } } } } } }
  /comments/{comment_id}:
    get:
      operationId: getComment
      summary: Get a comment
      parameters:
        - { name: comment_id, in: path, required: true, schema: { type: integer } }
      responses:
        '200': { description: the comment, content: { application/json: { schema: { type: object, properties: { id: { type: integer }, text: { type: string } } } } } }
`;

const recipes = plannerIndexOf(recipesSpec, 'recipes');

describe('planRoadmap reading role nouns and the words before a noun', () => {
  it('reads a role noun as the entity for people, reached through the field that names it (`the author of recipe r-12`)', () => {
    const roadmap = planRoadmap('Show the profile of the author of recipe r-12', recipes);
    expect(roadmap.steps.map(route)).toEqual(['GET /recipes/{recipe_id}', 'GET /u/{username}']);
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`)).toEqual([
      '{{ResponseBinding.GetARecipe.body.username}} → username',
    ]);
  });

  it('reads the role noun through the requirement vocabulary, and no name of one person as a role', () => {
    const [clause] = parseRequirement('Show the profile of the author of recipe r-12', requirementVocabulary(recipes));
    expect(clause?.mentions.map((mention) => mention.entity)).toContain('user');
    const [named] = parseRequirement('Show the recipes of Taylor', requirementVocabulary(recipes));
    expect(named?.mentions.map((mention) => mention.entity)).not.toContain('user');
  });

  it('takes the value from an object of the entity the role is reached through (`the author of the latest comment`)', () => {
    // `Get the latest recipes` lists users too; the author of a comment is in the comments' answer.
    const roadmap = planRoadmap('Which awards does the author of the latest comment have?', recipes);
    expect(roadmap.steps.map(route)).toEqual(['GET /comments', 'GET /user-awards/{username}']);
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`)).toEqual([
      '{{ResponseBinding.GetLatestComments.body.latest_comments[0].username}} → username',
    ]);
  });

  it('reads a participle before the noun as saying which ones (`all saved recipes` come from the saved list)', () => {
    const roadmap = planRoadmap('Remove all saved recipes', recipes);
    expect(roadmap.steps.map(route)).toEqual(['GET /me/saved', 'DELETE /me/saved']);
  });
});

/** A courses catalog: the search finds courses, teachers and lessons; a course lists its lessons. */
const coursesSpec = `
openapi: 3.0.3
info: { title: Courses, version: '1' }
paths:
  /search:
    get:
      operationId: search
      summary: Search for courses, teachers or lessons
      parameters:
        - { name: q, in: query, required: true, schema: { type: string } }
      responses:
        '200':
          description: results
          content:
            application/json:
              schema:
                type: object
                properties:
                  courses: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Course' } } } }
                  teachers: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Teacher' } } } }
                  lessons: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Lesson' } } } }
  /courses/{id}:
    get:
      operationId: getCourse
      summary: Get a course
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the course, content: { application/json: { schema: { $ref: '#/components/schemas/Course' } } } }
  /courses/{id}/lessons:
    get:
      operationId: getCourseLessons
      summary: Get a course's lessons
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: lessons, content: { application/json: { schema: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Lesson' } } } } } } }
  /teachers/{id}/top-lessons:
    get:
      operationId: getTeacherTopLessons
      summary: Get a teacher's top lessons
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: lessons, content: { application/json: { schema: { type: object, properties: { lessons: { type: array, items: { $ref: '#/components/schemas/Lesson' } } } } } } }
  /teachers/{id}/courses:
    get:
      operationId: getTeacherCourses
      summary: Get a teacher's courses
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: courses, content: { application/json: { schema: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Course' } } } } } } }
  /me/following:
    get:
      operationId: getFollowedTeachers
      summary: Get the teachers I follow
      responses:
        '200': { description: teachers, content: { application/json: { schema: { type: object, properties: { teachers: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Teacher' } } } } } } } } }
  /me/queue:
    post:
      operationId: addToQueue
      summary: Add an item to the end of my study queue
      parameters:
        - { name: uri, in: query, required: true, schema: { type: string }, description: The uri of the item to add. Must be a lesson uri. }
      responses:
        '204': { description: added }
components:
  schemas:
    Course: { type: object, properties: { id: { type: string }, name: { type: string } } }
    Teacher: { type: object, properties: { id: { type: string }, name: { type: string } } }
    Lesson: { type: object, properties: { id: { type: string }, uri: { type: string }, name: { type: string } } }
`;

const courses = plannerIndexOf(coursesSpec, 'courses');

describe('planRoadmap picking an item by its order from what a name holds', () => {
  it("reads `the first unit of <name>` from the named owner's list, the owner found by its name", () => {
    // `unit` is no word of the catalog; the queue's uri is a lesson's, and lessons are listed under an owner.
    const roadmap = planRoadmap('Add the first unit of Intro To Algebra to my study queue', courses);
    const steps = roadmap.steps.map(route);
    expect(steps).toHaveLength(3);
    expect(steps[0]).toBe('GET /search');
    expect(steps[1]).toMatch(/^GET \/\w+\/\{id\}\/(top-)?lessons$/);
    expect(steps[2]).toBe('POST /me/queue');
    expect(roadmap.inputs).toMatchObject([{ name: 'q', example: 'Intro To Algebra' }]);
  });

  it("walks to the owner's list through the owner's own qualifiers (`the first unit of the newest course of my first followed teacher`)", () => {
    // The queue takes what its uri's description names (a lesson), not the course or teacher the clause names.
    const roadmap = planRoadmap(
      'Add the first unit of the newest course of my first followed teacher to my study queue',
      courses,
    );
    expect(roadmap.steps.map(route)).toEqual([
      'GET /me/following',
      'GET /teachers/{id}/courses',
      'GET /courses/{id}/lessons',
      'POST /me/queue',
    ]);
  });

  it('looks an item up by its own name when no order picks it from an owner', () => {
    const roadmap = planRoadmap('Add Intro To Algebra to my study queue', courses);
    expect(roadmap.steps.map(route)).toEqual(['GET /search', 'POST /me/queue']);
  });
});

/** A cookbook: recipes are found by name or read from what I viewed last; collections are mine. */
const cookbookSpec = `
openapi: 3.0.3
info: { title: Cookbook, version: '1' }
paths:
  /search:
    get:
      operationId: search
      summary: Search for recipes
      parameters:
        - { name: q, in: query, required: true, schema: { type: string } }
      responses:
        '200': { description: results, content: { application/json: { schema: { type: object, properties: { recipes: { type: object, properties: { items: { type: array, items: { $ref: '#/components/schemas/Recipe' } } } } } } } } }
  /me/collections:
    get:
      operationId: listMyCollections
      summary: Get my collections
      responses:
        '200': { description: collections, content: { application/json: { schema: { type: object, properties: { items: { type: array, items: { type: object, properties: { id: { type: string }, name: { type: string } } } } } } } } }
  /collections/{collection_id}/recipes:
    post:
      operationId: addRecipesToCollection
      summary: Add recipes to a collection
      parameters:
        - { name: collection_id, in: path, required: true, schema: { type: string } }
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [uris], properties: { uris: { type: array, items: { type: string } } } }
      responses:
        '201': { description: added }
  /recipes/{id}:
    get:
      operationId: getRecipe
      summary: Get a recipe
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the recipe, content: { application/json: { schema: { $ref: '#/components/schemas/Recipe' } } } }
  /me/recent:
    get:
      operationId: getRecentRecipe
      summary: Get the recipe I viewed last
      responses:
        '200': { description: the recipe, content: { application/json: { schema: { type: object, properties: { item: { $ref: '#/components/schemas/Recipe' } } } } } }
components:
  schemas:
    Recipe: { type: object, properties: { id: { type: string }, uri: { type: string }, title: { type: string } } }
`;

const cookbook = plannerIndexOf(cookbookSpec, 'cookbook');

describe("planRoadmap reading `my` as the owner's word", () => {
  it('takes a named item by its name when `my` says whose collection it goes to (`Lemon Tart in my first collection`)', () => {
    // `my` belongs to the collection: it does not make `/me/recent` the place the recipe comes from.
    const roadmap = planRoadmap('Add Lemon Tart in my first collection', cookbook);
    expect(roadmap.steps.map(route).sort()).toEqual([
      'GET /me/collections',
      'GET /search',
      'POST /collections/{collection_id}/recipes',
    ]);
    expect(roadmap.inputs).toMatchObject([{ name: 'q', example: 'Lemon Tart' }]);
  });
});
