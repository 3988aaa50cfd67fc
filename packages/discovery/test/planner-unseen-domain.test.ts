import { describe, expect, it } from 'vitest';
import { MAX_ACTIONS, planRoadmap, renderRoadmap } from '../src/index.js';
import { plannerIndexOf, route } from './helpers/plan-on-spec.js';

/**
 * A catalog of a domain no evaluation set covers (a lending library), written here: the planner
 * must plan on it from the spec and general English alone.
 */
const spec = `
openapi: 3.0.3
info: { title: Lending library, version: '1' }
paths:
  /authors:
    get:
      operationId: searchAuthors
      summary: Search authors
      description: Finds the people whose name contains the query.
      parameters:
        - { name: name, in: query, required: true, schema: { type: string } }
      responses:
        '200':
          description: matching authors
          content:
            application/json:
              schema:
                type: array
                items: { $ref: '#/components/schemas/Author' }
  /authors/{author_id}:
    get:
      operationId: getAuthor
      summary: Get an author
      parameters:
        - { name: author_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the author, content: { application/json: { schema: { $ref: '#/components/schemas/Author' } } } }
  /authors/{author_id}/books:
    get:
      operationId: listAuthorBooks
      summary: List an author's books
      description: The books an author wrote, newest first.
      parameters:
        - { name: author_id, in: path, required: true, schema: { type: string } }
        - { name: sort, in: query, schema: { type: string, enum: [newest, oldest] } }
      responses:
        '200':
          description: books
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Book' } }
  /books/{book_id}:
    get:
      operationId: getBook
      summary: Get a book
      parameters:
        - { name: book_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the book, content: { application/json: { schema: { $ref: '#/components/schemas/Book' } } } }
  /books/{book_id}/loans:
    get:
      operationId: listBookLoans
      summary: List the loans of a book
      description: Who borrowed the book and when it is due back.
      parameters:
        - { name: book_id, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: loans
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Loan' } }
  /members/{member_id}:
    get:
      operationId: getMember
      summary: Get a member
      parameters:
        - { name: member_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the member, content: { application/json: { schema: { $ref: '#/components/schemas/Member' } } } }
  /loans/{loan_id}:
    get:
      operationId: getLoan
      summary: Get a loan
      parameters:
        - { name: loan_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the loan, content: { application/json: { schema: { $ref: '#/components/schemas/Loan' } } } }
  /loans:
    post:
      operationId: createLoan
      summary: Lend a book to a member
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [book_id, member_id]
              properties:
                book_id: { type: string }
                member_id: { type: string }
      responses:
        '201': { description: the loan, content: { application/json: { schema: { $ref: '#/components/schemas/Loan' } } } }
components:
  schemas:
    Author:
      type: object
      properties: { id: { type: string }, name: { type: string } }
    Book:
      type: object
      properties: { id: { type: string }, title: { type: string }, author_id: { type: string }, published: { type: string } }
    Member:
      type: object
      properties: { id: { type: string }, name: { type: string }, email: { type: string } }
    Loan:
      type: object
      properties: { id: { type: string }, book_id: { type: string }, member_id: { type: string }, due: { type: string } }
`;

const index = plannerIndexOf(spec, 'library');

describe('planRoadmap on a catalog of a domain it was not written for', () => {
  it('walks from a named author through their newest book to its loans', () => {
    const roadmap = planRoadmap('List the loans of the newest book of Ursula Le Guin', index);
    expect(roadmap.steps.map(route)).toEqual([
      'GET /authors',
      'GET /authors/{author_id}/books',
      'GET /books/{book_id}/loans',
    ]);
    const search = roadmap.inputs.find((input) => input.name === 'name');
    expect(search?.example).toBe('Ursula Le Guin');
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`).sort()).toEqual([
      '{{ResponseBinding.ListAnAuthorsBooks.body[0].id}} → book_id',
      '{{ResponseBinding.SearchAuthors.body[0].id}} → author_id',
    ]);
  });

  it('offers the producers it considered as an action of their own, and takes another when told', () => {
    const requirement = 'List the loans of the newest book of Ursula Le Guin';
    const roadmap = planRoadmap(requirement, index);
    const feeding = roadmap.actions.findIndex((action) => action.feeds?.name === 'book_id');
    const action = roadmap.actions[feeding];
    expect(action?.feeds).toEqual({ step: 'ListTheLoansOfABook', in: 'path', name: 'book_id' });
    expect(action?.candidates[0]?.path).toBe('/authors/{author_id}/books');
    const other = action?.candidates[1];
    expect(other).toBeDefined();
    const chosen = planRoadmap(requirement, index, { choices: new Map([[feeding, other!.endpointId]]) });
    expect(chosen.steps.map(route)).toContain(`${other!.method} ${other!.path}`);
    expect(chosen.steps.map(route)).not.toContain('GET /authors/{author_id}/books');
  });

  it('takes a value the requirement gives for an entity as the input, without a producer', () => {
    const roadmap = planRoadmap('Show the loans of book b-1942', index);
    expect(roadmap.steps.map(route)).toEqual(['GET /books/{book_id}/loans']);
    expect(roadmap.inputs).toMatchObject([{ name: 'bookId', example: 'b-1942' }]);
  });

  it('reads the entity asked about that the given one names: the loan, then its member', () => {
    const roadmap = planRoadmap('Show the member of loan l-77', index);
    expect(roadmap.steps.map(route)).toEqual(['GET /loans/{loan_id}', 'GET /members/{member_id}']);
    expect(roadmap.bindings).toMatchObject([
      { expression: '{{ResponseBinding.GetALoan.body.member_id}}', to: { name: 'member_id' } },
    ]);
  });

  it('reaches what a word the spec never uses names, through related English words', () => {
    // `writer` is nowhere in the paths or summaries; WordNet relates it to `author`.
    const roadmap = planRoadmap('Find the writer Ursula Le Guin', index);
    expect(roadmap.steps.map(route)).toEqual(['GET /authors']);
  });

  it('offers its best candidates with scores and reasons, and says so when it is unsure', () => {
    const roadmap = planRoadmap('renew the subscription of the reading club', index);
    expect(roadmap.actions.length).toBeGreaterThan(0);
    for (const action of roadmap.actions) {
      expect(action.candidates.length).toBeGreaterThan(0);
      expect(action.candidates.length).toBeLessThanOrEqual(5);
      for (const candidate of action.candidates) expect(candidate.reasons.length).toBeGreaterThan(0);
    }
    expect(roadmap.confidence).toBeLessThan(0.8);
    expect(roadmap.notes?.some((note) => note.startsWith('low confidence'))).toBe(true);
  });
});

describe('renderRoadmap of an unsure plan', () => {
  it("lists every action's candidates with scores and reasons", () => {
    const roadmap = planRoadmap('renew the subscription of the reading club', index);
    const text = renderRoadmap(roadmap);
    expect(text).toContain("Low confidence: choose among each action's candidates");
    for (const candidate of roadmap.actions[0]?.candidates ?? [])
      expect(text).toContain(`${candidate.method} ${candidate.path} (${candidate.score.toFixed(2)})`);
  });

  it('plans at most MAX_ACTIONS actions of a long requirement, and says the rest was left out', () => {
    const asks = ['get book 7', 'list the loans of book 7', 'get member 3', 'get loan 9'];
    const requirement = Array.from({ length: 20 }, (_, at) => asks[at % asks.length]).join(', then ');
    const roadmap = planRoadmap(requirement, index);
    expect(roadmap.actions.filter((action) => action.feeds === undefined).length).toBeLessThanOrEqual(MAX_ACTIONS);
    expect(roadmap.steps.length).toBeGreaterThan(0);
    expect(roadmap.confidence).toBeLessThanOrEqual(0.3);
    expect(roadmap.notes).toContain(
      `the requirement asks for 20 actions; the first ${MAX_ACTIONS} are planned: plan the rest as another requirement`,
    );
    const short = planRoadmap(asks.slice(0, 2).join(', then '), index);
    expect(short.notes ?? []).not.toContainEqual(expect.stringContaining('actions; the first'));
  });
});
