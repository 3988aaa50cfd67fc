import { describe, expect, it } from 'vitest';
import { buildPlannerIndex, extractEndpoints, parseOpenApiDocument, planRoadmap } from '../src/index.js';

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
  /me/treatment/current:
    get:
      operationId: getCurrentTreatment
      summary: Get the treatment under way now
      description: The patient being treated, with the ward.
      responses:
        '200':
          description: the treatment
          content:
            application/json:
              schema:
                type: object
                properties:
                  started_at: { type: string }
                  ward: { type: string }
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
`;

const index = buildPlannerIndex(
  extractEndpoints(parseOpenApiDocument(spec).resolved).map((endpoint) => ({ ...endpoint, specId: 'hospital' })),
);
const route = (step: { method: string; path: string }): string => `${step.method} ${step.path}`;

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

  it('keeps the value where it lies when nothing qualifies the entity', () => {
    const roadmap = planRoadmap('Notify my doctors', index);
    expect(roadmap.steps.map(route)).toEqual(['GET /me/doctors', 'POST /doctors/{doctor_id}/notifications']);
  });
});
