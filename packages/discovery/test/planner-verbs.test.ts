import { describe, expect, it } from 'vitest';
import { planRoadmap } from '../src/index.js';
import { relatedInCatalog } from '../src/planner/rank-endpoints.js';
import { stem } from '../src/planner/text.js';
import { aspectsOf } from '../src/planner/verb-aspect.js';
import { intentOfVerb } from '../src/planner/vocabulary.js';
import { plannerIndexOf } from './helpers/plan-on-spec.js';

/**
 * A community garden's catalog, written here: endpoints that share their objects (beds, notes,
 * gardeners) and differ by the action they perform, so only the requirement's verb tells them
 * apart.
 */
const spec = `
openapi: 3.0.3
info: { title: Community garden, version: '1' }
paths:
  /beds:
    get:
      operationId: listBeds
      summary: List garden beds
      parameters:
        - { name: status, in: query, schema: { type: string, enum: [closed, opened, fallow] } }
      responses:
        '200': { description: beds, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Bed' } } } } }
  /beds/{bed_id}:
    get:
      operationId: getBed
      summary: Get a garden bed
      parameters:
        - { name: bed_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the bed, content: { application/json: { schema: { $ref: '#/components/schemas/Bed' } } } }
  /beds/{bed_id}/status:
    put:
      operationId: updateBedStatus
      summary: Update the status of a bed
      parameters:
        - { name: bed_id, in: path, required: true, schema: { type: string } }
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [status]
              properties:
                status: { type: string, enum: [closed, opened, fallow] }
      responses:
        '200': { description: done }
  /beds/{bed_id}/timer:
    post:
      operationId: createBedTimer
      summary: Create bed timer
      parameters:
        - { name: bed_id, in: path, required: true, schema: { type: string } }
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                time: { type: string }
                status_type: { type: string }
      responses:
        '200':
          description: the timer
          content:
            application/json:
              schema:
                type: object
                properties: { execute_at: { type: string }, closed: { type: boolean } }
  /me/sprinklers/water:
    put:
      operationId: startIrrigation
      summary: Start/Resume irrigation
      description: Start a new schedule or resume irrigation on the gardener's active sprinkler.
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties: { bed_ids: { type: array, items: { type: string } } }
      responses:
        '204': { description: started }
  /me/sprinklers/queue:
    get:
      operationId: getWateringQueue
      summary: Get the gardener's watering queue
      responses:
        '200': { description: the queue, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Bed' } } } } }
    post:
      operationId: addToWateringQueue
      summary: Add bed to watering queue
      parameters:
        - { name: bed_id, in: query, required: true, schema: { type: string } }
      responses:
        '204': { description: queued }
  /areas/{area_id}/addBed:
    post:
      operationId: addBedForArea
      summary: Add a bed to an area
      parameters:
        - { name: area_id, in: path, required: true, schema: { type: string } }
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [bed]
              properties: { bed: { type: string } }
      responses:
        '200': { description: done }
  /me/beds:
    put:
      operationId: saveBeds
      summary: Save beds for the current gardener
      description: Save one or more beds to the current gardener's favourites.
      parameters:
        - { name: ids, in: query, required: true, schema: { type: string } }
      responses:
        '200': { description: done }
  /gardeners:
    post:
      operationId: createGardener
      summary: Creates a gardener
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [name, email]
              properties: { name: { type: string }, email: { type: string } }
      responses:
        '200': { description: the gardener, content: { application/json: { schema: { $ref: '#/components/schemas/Gardener' } } } }
  /gardeners/{name}:
    get:
      operationId: getGardener
      summary: Get a gardener by name
      parameters:
        - { name: name, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the gardener, content: { application/json: { schema: { $ref: '#/components/schemas/Gardener' } } } }
  /gardeners/{name}/email:
    put:
      operationId: updateEmail
      summary: Update email
      parameters:
        - { name: name, in: path, required: true, schema: { type: string } }
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [email]
              properties: { email: { type: string } }
      responses:
        '200': { description: done }
  /notes/{note_id}:
    get:
      operationId: getNote
      summary: Get a note
      parameters:
        - { name: note_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the note, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
    put:
      operationId: updateNote
      summary: Update a single note
      parameters:
        - { name: note_id, in: path, required: true, schema: { type: string } }
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [text]
              properties: { text: { type: string } }
      responses:
        '200': { description: the note, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
  /notes/{note_id}/locked:
    put:
      operationId: lockNote
      summary: Lock a note from being edited
      parameters:
        - { name: note_id, in: path, required: true, schema: { type: string } }
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [locked]
              properties: { locked: { type: string } }
      responses:
        '200': { description: done }
  /notes:
    post:
      operationId: createNote
      summary: Creates a new note or a reply
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [text]
              properties: { text: { type: string }, bed_id: { type: string }, reply_to_note_id: { type: string } }
      responses:
        '200': { description: the note, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
  /notes/{note_id}/replies:
    get:
      operationId: noteReplies
      summary: List replies to a note
      parameters:
        - { name: note_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: replies, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Note' } } } } }
  /note_actions:
    post:
      operationId: performNoteAction
      summary: Like a note and other actions
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [id, note_action_type_id]
              properties: { id: { type: integer }, note_action_type_id: { type: integer } }
      responses:
        '200': { description: the note, content: { application/json: { schema: { $ref: '#/components/schemas/Note' } } } }
components:
  schemas:
    Bed:
      type: object
      properties: { id: { type: string }, name: { type: string }, planted: { type: string } }
    Gardener:
      type: object
      properties: { id: { type: string }, name: { type: string }, email: { type: string } }
    Note:
      type: object
      properties: { id: { type: string }, text: { type: string }, can_edit: { type: boolean } }
`;

const index = plannerIndexOf(spec, 'garden');
const requested = (requirement: string): string[] =>
  planRoadmap(requirement, index)
    .steps.filter((step) => step.role === 'requested')
    .map((step) => `${step.method} ${step.path}`);

describe('planRoadmap picks the endpoint that does what the verb says', () => {
  it('takes the endpoint whose input chooses the state the verb names (`closed`) over one that only answers it', () => {
    expect(requested('Close bed 7')).toEqual(['PUT /beds/{bed_id}/status']);
    // A read's choices only filter what it answers.
    const candidates = planRoadmap('Close bed 7', index, { candidates: 20 }).actions[0]?.candidates ?? [];
    const listing = candidates.find((candidate) => candidate.path === '/beds');
    expect(listing).toBeDefined();
    expect(listing?.reasons.join('; ')).not.toContain("does what the clause's verb says");
    // The states it can set say what it can do, not that it does another action than `water`.
    const watering = planRoadmap('Water bed 7', index, { candidates: 20 }).actions[0]?.candidates ?? [];
    const status = watering.find((candidate) => candidate.path === '/beds/{bed_id}/status');
    expect(status).toBeDefined();
    expect(status?.reasons.join('; ')).not.toContain('another action');
  });

  it('takes the endpoint whose path ends in the verb over one that saves the object', () => {
    expect(requested('Water the newest bed of Alice')).toEqual(['PUT /me/sprinklers/water']);
  });

  it('takes a creating endpoint for a creating verb over one whose summary says it updates', () => {
    expect(requested('Register a new gardener Alice with the email alice@example.com')).toEqual(['POST /gardeners']);
  });

  it('does not rule out an endpoint by the intent WordNet guesses for a specific verb (`move` against `Add a bed to an area`)', () => {
    const [action] = planRoadmap('Move bed 7 to area shady-corner', index).actions;
    expect(action?.candidates[0]?.path).toBe('/areas/{area_id}/addBed');
    expect(action?.candidates[0]?.reasons.join('; ')).not.toContain('another action');
  });

  it('does not take an endpoint where the verb is only a word of its summary (`Lock a note from being edited`)', () => {
    expect(requested('Edit note 12 so that it says "water twice"')).toEqual(['PUT /notes/{note_id}']);
  });

  it('reads a phrasal verb among the broader ones by its head (`append` is `add on`), and a path noun the summary names as no action', () => {
    expect(intentOfVerb('append')).toBe('create');
    const [action] = planRoadmap('Append bed 7 to my watering queue', index).actions;
    expect(action?.candidates[0]?.path).toBe('/me/sprinklers/queue');
    expect(action?.candidates[0]?.reasons.join('; ')).not.toContain('another action');
  });

  it('reads a verb that is a kind of telling (`reply`) as handing something over, not as a read', () => {
    expect(requested('Reply to bed 7 with "Thanks, the tomatoes are fine"')).toEqual(['POST /notes']);
  });

  it("reads an imperative's first word as its verb even when a later word is a known verb (`like note 12`)", () => {
    expect(requested('Like note 12')).toEqual(['POST /note_actions']);
  });
});

/**
 * A slideshow's catalog: its lists are paged, so `next` and `previous` are field names of many
 * answers, while one endpoint is the action of going to the next slide.
 */
const page = (item: string): string => `
          description: a page
          content:
            application/json:
              schema:
                type: object
                properties:
                  href: { type: string }
                  next: { type: string }
                  previous: { type: string }
                  total: { type: integer }
                  items: { type: array, items: { $ref: '#/components/schemas/${item}' } }`;
const slideshow = `
openapi: 3.0.3
info: { title: Slideshow, version: '1' }
paths:
  /decks:
    get:
      operationId: listDecks
      summary: List decks
      responses:
        '200':${page('Deck')}
  /me/decks:
    get:
      operationId: listOwnDecks
      summary: Get the current presenter's decks
      responses:
        '200':${page('Deck')}
  /decks/{deck_id}/slides:
    get:
      operationId: listDeckSlides
      summary: Get a deck's slides
      parameters:
        - { name: deck_id, in: path, required: true, schema: { type: string } }
      responses:
        '200':${page('Slide')}
  /me/notes:
    get:
      operationId: listOwnNotes
      summary: Get the current presenter's speaker notes
      responses:
        '200':${page('Slide')}
  /themes:
    get:
      operationId: listThemes
      summary: List themes
      responses:
        '200':${page('Deck')}
  /fonts:
    get:
      operationId: listFonts
      summary: List fonts
      responses:
        '200':${page('Deck')}
  /images:
    get:
      operationId: listImages
      summary: List images
      responses:
        '200':${page('Deck')}
  /teams:
    get:
      operationId: listTeams
      summary: List teams
      responses:
        '200':${page('Deck')}
  /tags:
    get:
      operationId: listTags
      summary: List tags
      responses:
        '200':${page('Deck')}
  /folders:
    get:
      operationId: listFolders
      summary: List folders
      responses:
        '200':${page('Deck')}
  /comments:
    get:
      operationId: listComments
      summary: List comments
      responses:
        '200':${page('Deck')}
  /templates:
    get:
      operationId: listTemplates
      summary: List templates
      responses:
        '200':${page('Deck')}
  /me/show/next:
    post:
      operationId: skipToNext
      summary: Skip to next
      description: Skips to the next slide of the presenter's show.
      responses:
        '204': { description: skipped }
  /me/show/loop:
    put:
      operationId: setLoopMode
      summary: Set loop mode
      description: Set the loop mode of the presenter's show.
      parameters:
        - { name: state, in: query, required: true, schema: { type: string, enum: [slide, deck, off] } }
      responses:
        '204': { description: set }
components:
  schemas:
    Deck:
      type: object
      properties: { id: { type: string }, title: { type: string } }
    Slide:
      type: object
      properties: { id: { type: string }, title: { type: string } }
`;

describe('planRoadmap keeps every clause that has a verb of its own', () => {
  const shows = plannerIndexOf(slideshow, 'show');

  it('takes a clause with a verb of its own as an action, however weakly its words match', () => {
    const roadmap = planRoadmap('Switch to whatever comes next in the talk and set the single slide loop mode', shows);
    expect(roadmap.steps.map((step) => `${step.method} ${step.path}`)).toEqual([
      'POST /me/show/next',
      'PUT /me/show/loop',
    ]);
  });
});

/** A tool-rental catalog whose two lists differ only by the time their verb speaks of. */
const rentals = `
openapi: 3.0.3
info: { title: Tool rental, version: '1' }
paths:
  /leases/expiring:
    get:
      summary: List of expiring leases
      description: Leases that end in the coming days.
      responses:
        '200': { description: leases, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Lease' } } } } }
  /leases/expired:
    get:
      summary: List of expired leases
      description: Leases that already ended.
      responses:
        '200': { description: leases, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Lease' } } } } }
  /leases/{lease_id}:
    get:
      summary: Get a lease
      parameters:
        - { name: lease_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the lease, content: { application/json: { schema: { $ref: '#/components/schemas/Lease' } } } }
components:
  schemas:
    Lease:
      type: object
      properties: { id: { type: string }, tool: { type: string }, ends: { type: string } }
`;

describe('planRoadmap keeps what the form of a verb says of the time', () => {
  const leases = plannerIndexOf(rentals, 'rental');
  const plan = (requirement: string): string[] =>
    planRoadmap(requirement, leases).steps.map((step) => `${step.method} ${step.path}`);

  it('reads `about to expire` and `expiring` as under way, `expired` as over', () => {
    expect(aspectsOf('Which leases are about to expire?')).toEqual({ expir: 'ongoing' });
    expect(aspectsOf('the leases being expired')).toEqual({ expir: 'ongoing' });
    expect(aspectsOf('List of expired leases')).toEqual({ expir: 'done' });
    expect(aspectsOf('List of expiring leases')).toEqual({ expir: 'ongoing' });
  });

  it('takes the list whose verb speaks of the same time as the requirement', () => {
    expect(plan('Which leases are about to expire?')).toEqual(['GET /leases/expiring']);
    expect(plan('Show the leases that are expiring')).toEqual(['GET /leases/expiring']);
    expect(plan('Show the leases that expired')).toEqual(['GET /leases/expired']);
  });
});

/** A railway line's catalog: the stops on either side of a given stop. */
const railway = `
openapi: 3.0.3
info: { title: Railway line, version: '1' }
paths:
  /stops/{stop_id}:
    get:
      summary: Specific stop
      parameters:
        - { name: stop_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the stop, content: { application/json: { schema: { $ref: '#/components/schemas/Stop' } } } }
  /stops/{stop_id}/next:
    get:
      summary: Listing of next stops
      description: Return the list of stops following a specific stop.
      parameters:
        - { name: stop_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: stops, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Stop' } } } } }
  /stops/{stop_id}/previous:
    get:
      summary: Listing of previous stops
      description: Return the list of stops preceding a specific stop.
      parameters:
        - { name: stop_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: stops, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Stop' } } } } }
components:
  schemas:
    Stop:
      type: object
      properties: { id: { type: string }, name: { type: string } }
`;

describe('planRoadmap reads an order word as a word of the request', () => {
  it('takes the list of previous stops for the stops before a given one', () => {
    const line = plannerIndexOf(railway, 'rail');
    expect(
      planRoadmap('List the stops before stop 12', line).steps.map((step) => `${step.method} ${step.path}`),
    ).toEqual(['GET /stops/{stop_id}/previous']);
  });
});

/** A radio catalog: the people who donate to a channel, and what a channel can be told to do. */
const radio = `
openapi: 3.0.3
info: { title: Radio, version: '1' }
paths:
  /channels/{channel_id}:
    get:
      summary: Specific channel
      parameters:
        - { name: channel_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the channel, content: { application/json: { schema: { $ref: '#/components/schemas/Channel' } } } }
  /channels/{channel_id}/donators:
    get:
      summary: Channel donators
      description: List of the channel's current donators.
      parameters:
        - { name: channel_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: donators, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Listener' } } } } }
  /channels/{channel_id}/mute:
    put:
      summary: Mute a channel
      parameters:
        - { name: channel_id, in: path, required: true, schema: { type: string } }
      responses:
        '204': { description: muted }
  /donation-options:
    get:
      summary: Donate options
      description: Return the ways one can donate.
      responses:
        '200': { description: plans, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Plan' } } } } }
components:
  schemas:
    Channel:
      type: object
      properties: { id: { type: string }, name: { type: string } }
    Listener:
      type: object
      properties: { id: { type: string }, name: { type: string } }
    Plan:
      type: object
      properties: { id: { type: string }, price: { type: number } }
`;

describe('planRoadmap reads who does what a verb says, and a colon between two actions', () => {
  const channels = plannerIndexOf(radio, 'radio');
  const plan = (requirement: string): string[] =>
    planRoadmap(requirement, channels).steps.map((step) => `${step.method} ${step.path}`);

  it('answers `who donates` with the donators (the verb’s agent noun)', () => {
    expect(plan('Who donates to channel c-5?')).toEqual(['GET /channels/{channel_id}/donators']);
  });

  it('relates the verb to its agent noun, but not its participle (`donated to`)', () => {
    const agents = (word: string): string[] => relatedInCatalog(channels, stem(word), word).map(([related]) => related);
    expect(agents('donates')).toContain('donator');
    expect(agents('donated')).not.toContain('donator');
  });

  it('reads a colon before a value as part of its clause', () => {
    expect(plan('Mute the channel with this id: c-5')).toEqual(['PUT /channels/{channel_id}/mute']);
  });

  it('reads the action after a colon as an action of its own', () => {
    expect(plan('Mute channel c-5: list its donators')).toEqual([
      'PUT /channels/{channel_id}/mute',
      'GET /channels/{channel_id}/donators',
    ]);
  });
});
