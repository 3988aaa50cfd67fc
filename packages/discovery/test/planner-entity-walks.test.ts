import { describe, expect, it } from 'vitest';
import { planRoadmap } from '../src/index.js';
import { parseRequirement } from '../src/planner/parse-requirement.js';
import { requirementVocabulary } from '../src/planner/requirement-vocabulary.js';
import { plannerIndexOf, route } from './helpers/plan-on-spec.js';

/**
 * Entity walks on a catalog of a domain no evaluation set covers (a hospital): which endpoint
 * produces the value an action needs when the requirement describes that value through another
 * entity (`the doctor of the person now being treated`).
 */
const spec = `
openapi: 3.0.3
info: { title: Hospital, version: '1' }
paths:
  /me/doctors:
    get:
      operationId: listMyDoctors
      summary: List the doctors I follow
      responses:
        '200': { description: doctors, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Doctor' } } } } }
  /doctors/{doctor_id}:
    get:
      operationId: getDoctor
      summary: Get a doctor
      parameters:
        - { name: doctor_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the doctor, content: { application/json: { schema: { $ref: '#/components/schemas/Doctor' } } } }
  /doctors/{doctor_id}/notifications:
    post:
      operationId: notifyDoctor
      summary: Notify a doctor
      parameters:
        - { name: doctor_id, in: path, required: true, schema: { type: string } }
      responses:
        '201': { description: the page, content: { application/json: { schema: { type: object, properties: { id: { type: string }, sent_at: { type: string } } } } } }
  /patients/{patient_id}:
    get:
      operationId: getPatient
      summary: Get a patient
      parameters:
        - { name: patient_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the patient, content: { application/json: { schema: { $ref: '#/components/schemas/Patient' } } } }
  /wards/{ward_id}:
    get:
      operationId: getWard
      summary: Get the details of a ward
      parameters:
        - { name: ward_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the ward, content: { application/json: { schema: { type: object, properties: { id: { type: string }, name: { type: string }, floor: { type: integer } } } } } }
  /me/treatment/current:
    get:
      operationId: getCurrentTreatment
      summary: Get the treatment under way now
      description: The patient being treated.
      responses:
        '200':
          description: the treatment
          content:
            application/json:
              schema:
                type: object
                properties:
                  started_at: { type: string }
                  patient: { $ref: '#/components/schemas/Patient' }
components:
  schemas:
    Doctor:
      type: object
      properties: { id: { type: string }, name: { type: string }, pager: { type: string } }
    Patient:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
        doctors: { type: array, items: { $ref: '#/components/schemas/Doctor' } }
        ward: { type: object, properties: { id: { type: string }, name: { type: string } } }
`;

const index = plannerIndexOf(spec, 'hospital');

describe('planRoadmap walking from one entity to another', () => {
  it('takes the producer the words qualifying the entity name, not the one its own name matches best', () => {
    // `List the doctors I follow` offers doctor ids at the top of its answer; `now being treated` says which doctor.
    const roadmap = planRoadmap('Notify the doctor of the person now being treated', index);
    expect(roadmap.steps[0] && route(roadmap.steps[0])).toBe('GET /me/treatment/current');
    expect(roadmap.steps.map(route)).not.toContain('GET /me/doctors');
  });

  it("reads the doctor from the patient's own endpoint, by the id the treatment names", () => {
    const roadmap = planRoadmap('Notify the doctor of the person now being treated', index);
    expect(roadmap.steps.map(route)).toEqual([
      'GET /me/treatment/current',
      'GET /patients/{patient_id}',
      'POST /doctors/{doctor_id}/notifications',
    ]);
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`).sort()).toEqual([
      '{{ResponseBinding.GetAPatient.body.doctors[0].id}} → doctor_id',
      '{{ResponseBinding.GetTheTreatmentUnderWayNow.body.patient.id}} → patient_id',
    ]);
    const feeding = roadmap.actions.find((action) => action.feeds?.name === 'doctor_id');
    expect(feeding?.candidates[0]?.reasons[0]).toContain('of the patient whose id GET /me/treatment/current answers');
    expect(feeding?.candidates.map((candidate) => candidate.path)).toContain('/me/treatment/current');
  });

  it('reads a phrase after `<entity> details` as qualifying the entity: the ward of the person now being treated', () => {
    const roadmap = planRoadmap('Show the ward details of the person now being treated', index);
    expect(roadmap.steps.map(route)).toEqual([
      'GET /me/treatment/current',
      'GET /patients/{patient_id}',
      'GET /wards/{ward_id}',
    ]);
  });

  it('keeps the value where it lies when nothing qualifies the entity', () => {
    const roadmap = planRoadmap('Notify my doctors', index);
    expect(roadmap.steps.map(route)).toEqual(['GET /me/doctors', 'POST /doctors/{doctor_id}/notifications']);
  });
});

/** A shipping catalog: manifests list shipment ids as plain strings, carriers and shipments keep histories. */
const shippingSpec = `
openapi: 3.0.3
info: { title: Shipping, version: '1' }
paths:
  /accounts/{account_id}:
    get:
      operationId: getAccount
      summary: Get an account
      parameters:
        - { name: account_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the account, content: { application/json: { schema: { type: object, properties: { id: { type: string }, owner: { type: string } } } } } }
  /accounts/{account_id}/shipments:
    get:
      operationId: listAccountShipments
      summary: List the shipments of an account
      parameters:
        - { name: account_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: shipments, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Shipment' } } } } }
  /shipments/{shipment_id}:
    get:
      operationId: getShipment
      summary: Get a shipment
      parameters:
        - { name: shipment_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the shipment, content: { application/json: { schema: { $ref: '#/components/schemas/Shipment' } } } }
  /shipments/{shipment_id}/events:
    get:
      operationId: listShipmentEvents
      summary: List the tracking events of a shipment
      parameters:
        - { name: shipment_id, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: events
          content:
            application/json:
              schema: { type: array, items: { type: object, properties: { at: { type: string }, place: { type: string } } } }
  /shipments/{shipment_id}/route:
    get:
      operationId: getShipmentRoute
      summary: Shipment route
      parameters:
        - { name: shipment_id, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: where the shipment goes
          content:
            application/json:
              schema: { type: object, properties: { origin: { type: string }, destination: { type: string } } }
  /shipments/{shipment_id}/history:
    get:
      operationId: getShipmentHistory
      summary: Shipment history
      parameters:
        - { name: shipment_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: past states, content: { application/json: { schema: { type: array, items: { type: object, properties: { status: { type: string }, at: { type: string } } } } } } }
  /me/watchlist:
    get:
      operationId: getWatchlist
      summary: Get the shipments on my watchlist
      responses:
        '200': { description: the watchlist, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Shipment' } } } } }
    post:
      operationId: watchItem
      summary: Add an item to my watchlist
      parameters:
        - in: query
          name: uri
          required: true
          schema: { type: string, description: The uri of the item to watch. Must be a shipment uri. }
      responses:
        '204': { description: added }
  /me/watchlist/suggestions:
    get:
      operationId: listWatchlistSuggestions
      summary: Shipments to add to my watchlist
      responses:
        '200': { description: suggestions, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Shipment' } } } } }
  /me/shipments:
    get:
      operationId: listSavedShipments
      summary: List the shipments I saved
      responses:
        '200':
          description: saved shipments
          content:
            application/json:
              schema: { type: array, items: { type: object, properties: { saved_at: { type: string }, shipment: { $ref: '#/components/schemas/Shipment' } } } }
  /manifests/latest:
    get:
      operationId: getLatestManifest
      summary: Get the latest manifest
      responses:
        '200': { description: the manifest, content: { application/json: { schema: { type: object, properties: { id: { type: string }, closed_at: { type: string }, shipment_count: { type: integer } } } } } }
  /manifests/latest/shipments:
    get:
      operationId: listLatestManifestShipments
      summary: Shipments of the latest manifest
      responses:
        '200':
          description: shipment ids
          content:
            application/json:
              schema: { type: array, items: { type: string, description: Id of the shipment } }
  /carriers/extended:
    get:
      operationId: listCarriersExtended
      summary: List carriers with their details
      responses:
        '200': { description: carriers, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string }, name: { type: string }, phone: { type: string } } } } } } }
  /carriers/{carrier_id}:
    get:
      operationId: getCarrier
      summary: Get a carrier
      description: The details of one carrier.
      parameters:
        - { name: carrier_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the carrier, content: { application/json: { schema: { type: object, properties: { id: { type: string }, name: { type: string }, phone: { type: string } } } } } }
  /carriers/{carrier_id}/history:
    get:
      operationId: getCarrierHistory
      summary: Carrier history
      parameters:
        - { name: carrier_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: past shipments, content: { application/json: { schema: { type: array, items: { type: object, properties: { shipment_id: { type: string }, delivered_at: { type: string } } } } } } }
components:
  schemas:
    Shipment:
      type: object
      properties: { id: { type: string }, uri: { type: string }, status: { type: string }, carrier_id: { type: string }, account_id: { type: string } }
`;

const shipping = plannerIndexOf(shippingSpec, 'shipping');

describe('planRoadmap choosing the action by the entity a phrase qualifies', () => {
  it('reads the qualified entity and takes its id from the endpoint the qualifier names', () => {
    // `in the latest manifest` says which shipment: the manifest's list is the producer, the route the action.
    const roadmap = planRoadmap(
      'Show the origin and destination of the first shipment in the latest manifest',
      shipping,
    );
    expect(roadmap.steps.map(route)).toEqual(['GET /manifests/latest/shipments', 'GET /shipments/{shipment_id}/route']);
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`)).toEqual([
      '{{ResponseBinding.ShipmentsOfTheLatestManifest.body[0]}} → shipment_id',
    ]);
  });

  it('reads a list of plain strings as the values its item description names', () => {
    const roadmap = planRoadmap(
      'Show the origin and destination of the first shipment in the latest manifest',
      shipping,
    );
    expect(roadmap.bindings[0]?.reason).toContain("[0] is the shipment's id");
  });

  it('asks for the history of the entity after "of", not of the one the requirement gives', () => {
    for (const requirement of [
      'Show the history of the carrier that shipment s-1001 travels with',
      'Show the history of the carrier of shipment s-1001',
    ]) {
      const roadmap = planRoadmap(requirement, shipping);
      expect(roadmap.steps.map(route)).toEqual(['GET /shipments/{shipment_id}', 'GET /carriers/{carrier_id}/history']);
      expect(roadmap.inputs).toMatchObject([{ name: 'shipmentId', example: 's-1001' }]);
    }
  });

  it('reads `that carrier` by the id an earlier step names, not from the list of every carrier', () => {
    const roadmap = planRoadmap(
      "Which carrier does shipment s-1001 travel with? Show that carrier's details",
      shipping,
    );
    expect(roadmap.steps.map(route)).toEqual(['GET /shipments/{shipment_id}', 'GET /carriers/{carrier_id}']);
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`)).toEqual([
      '{{ResponseBinding.GetAShipment.body.carrier_id}} → carrier_id',
    ]);
    expect(planRoadmap('Show the details of all carriers', shipping).steps.map(route)).toEqual([
      'GET /carriers/extended',
    ]);
  });

  it('reads what a bare `uri` refers to from its description, and finds the entity there', () => {
    // `POST /me/watchlist` is about no entity; its `uri` is described as a shipment's.
    const roadmap = planRoadmap('Add the first consignment of account a-7 to my watchlist', shipping);
    expect(roadmap.steps.map(route)).toEqual(['GET /accounts/{account_id}/shipments', 'POST /me/watchlist']);
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`)).toEqual([
      '{{ResponseBinding.ListTheShipmentsOfAnAccount.body[0].uri}} → uri',
    ]);
    expect(roadmap.inputs).toMatchObject([{ name: 'accountId', example: 'a-7' }]);
  });

  it("chooses the producer by the clause's other words, not by the consumer's own (`my watchlist`)", () => {
    const roadmap = planRoadmap('Add the first shipment I saved to my watchlist', shipping);
    expect(roadmap.steps.map(route)).toEqual(['GET /me/shipments', 'POST /me/watchlist']);
  });

  it("keeps a word the catalog's paths use for what the catalog means by it", () => {
    // WordNet has `history` as a synonym of `account`; this catalog has both, and its paths say `history`.
    const [clause] = parseRequirement('Show the history of carrier c-9', requirementVocabulary(shipping));
    expect(clause?.mentions.map((mention) => mention.entity)).toEqual(['carrier']);
  });
});

/** A reviews catalog: ratings are listed by the user name, which a review gives beside its user id. */
const reviewsSpec = `
openapi: 3.0.3
info: { title: Reviews, version: '1' }
paths:
  /reviews/{review_id}:
    get:
      operationId: getReview
      summary: Get a review
      parameters:
        - { name: review_id, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the review, content: { application/json: { schema: { type: object, properties: { id: { type: string }, text: { type: string }, user_id: { type: integer }, username: { type: string } } } } } }
  /users/{user_id}:
    get:
      operationId: getUser
      summary: Get a user
      parameters:
        - { name: user_id, in: path, required: true, schema: { type: integer } }
      responses:
        '200': { description: the user, content: { application/json: { schema: { type: object, properties: { id: { type: integer }, username: { type: string } } } } } }
  /ratings:
    get:
      operationId: listRatings
      summary: List ratings
      responses:
        '200': { description: ratings, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string }, stars: { type: integer } } } } } } }
  /user-ratings/{username}:
    get:
      operationId: listUserRatings
      summary: List the ratings a user gave
      parameters:
        - { name: username, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: ratings, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string }, stars: { type: integer } } } } } } }
`;

const reviews = plannerIndexOf(reviewsSpec, 'reviews');

describe('planRoadmap feeding an input that takes a name', () => {
  it('reads `{username}` as a user, whatever else the clause names, and fills it with a name, never an id', () => {
    const roadmap = planRoadmap('List the ratings of the user of review r-5', reviews);
    expect(roadmap.steps.map(route)).toEqual(['GET /reviews/{review_id}', 'GET /user-ratings/{username}']);
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`)).toEqual([
      '{{ResponseBinding.GetAReview.body.username}} → username',
    ]);
  });
});

/** A wallet catalog whose examples show the form of its keys: addresses read `addr1…`, stake addresses `stake1…`. */
const walletSpec = `
openapi: 3.0.3
info: { title: Wallets, version: '1' }
paths:
  /addresses/{address}:
    get:
      operationId: getAddress
      summary: Specific address
      parameters:
        - { name: address, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: the address
          content:
            application/json:
              schema:
                type: object
                properties:
                  address: { type: string, example: addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x }
                  stake_address: { type: string, example: stake1ux3g2c9dx2nhhehyrezyxpkstartcqmu9hk63qgfkccw5rqttygt7 }
                  balance: { type: integer }
  /accounts/{stake_address}:
    get:
      operationId: getAccount
      summary: Specific account
      parameters:
        - { name: stake_address, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: the account
          content:
            application/json:
              schema:
                type: object
                properties:
                  stake_address: { type: string, example: stake1ux3g2c9dx2nhhehyrezyxpkstartcqmu9hk63qgfkccw5rqttygt7 }
                  active: { type: boolean }
  /accounts/{stake_address}/rewards:
    get:
      operationId: getAccountRewards
      summary: Account reward history
      parameters:
        - { name: stake_address, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: rewards
          content:
            application/json:
              schema: { type: array, items: { type: object, properties: { epoch: { type: integer }, amount: { type: string } } } }
`;

const wallet = plannerIndexOf(walletSpec, 'wallet');

describe("planRoadmap checking a given value against the form of the catalog's values", () => {
  const address =
    'addr1qy8ac7qqy0vtulyl7wntmsxc6wex80gvcyjy33qffrhm7sh927ysx5sftuw0dlft05dz3c7revpf7jx0xnlcjz3g69mq4afdhv';

  it('does not fill a stake address with an address: it reads the stake address from the address', () => {
    const roadmap = planRoadmap(`Show the rewards of the stake account of address ${address}`, wallet);
    expect(roadmap.steps.map(route)).toEqual(['GET /addresses/{address}', 'GET /accounts/{stake_address}/rewards']);
    expect(roadmap.inputs).toMatchObject([{ name: 'address', example: address }]);
    expect(roadmap.bindings.map((binding) => `${binding.expression} → ${binding.to.name}`)).toEqual([
      '{{ResponseBinding.SpecificAddress.body.stake_address}} → stake_address',
    ]);
  });

  it('takes a value of the right form as it is', () => {
    const roadmap = planRoadmap('Show the rewards of stake account stake1uyqqqq9p', wallet);
    expect(roadmap.steps.map(route)).toEqual(['GET /accounts/{stake_address}/rewards']);
    expect(roadmap.inputs).toMatchObject([{ name: 'stakeAddress', example: 'stake1uyqqqq9p' }]);
  });
});
