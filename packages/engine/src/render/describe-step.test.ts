import { describe, expect, it } from 'vitest';
import { stepNote, stepTitle } from './describe-step.js';

const base = { nodeName: 'ReadOrder', attempt: 1, status: 'Completed' };

describe('stepTitle', () => {
  it('names the node with its loop scope and the attempt of a retry', () => {
    expect(stepTitle(base)).toBe('ReadOrder');
    expect(stepTitle({ ...base, scope: 'Orders[2]', attempt: 3 })).toBe('Orders[2]/ReadOrder (attempt 3)');
  });
});

describe('stepNote', () => {
  it('puts the error first, cut to one line', () => {
    const note = stepNote({
      ...base,
      status: 'Failed',
      error: { code: 'ASSERTION_FAILED', message: 'expected 200\nbut got 500' },
      request: { method: 'GET', url: 'http://x' },
    });
    expect(note).toBe('ASSERTION_FAILED: expected 200 but got 500');
  });

  it('names the skip kind, the branch, and a child execution from either place', () => {
    expect(stepNote({ ...base, status: 'Skipped', skipKind: 'condition' })).toBe('skipped (condition)');
    expect(stepNote({ ...base, branch: 'paid' })).toBe('branch paid');
    expect(stepNote({ ...base, childExecutionId: 'c-1' })).toBe('child execution c-1');
    expect(stepNote({ ...base, response: { childExecutionId: 'c-2' } })).toBe('child execution c-2');
  });

  it('says when a wait is due before the request it sent, and cuts long URLs', () => {
    expect(
      stepNote({
        ...base,
        status: 'Waiting',
        wakeAt: '2026-01-01T00:00:00.000Z',
        request: { method: 'GET', url: 'http://x' },
      }),
    ).toBe('until 2026-01-01T00:00:00.000Z');
    const note = stepNote(
      { ...base, request: { method: 'POST', url: `http://127.0.0.1/${'a'.repeat(200)}` } },
      { message: 50, url: 30 },
    );
    expect(note).toMatch(/^POST http:\/\/127\.0\.0\.1\/a+…$/);
    expect(note.length).toBe('POST '.length + 30);
    expect(stepNote({ ...base, request: null })).toBe('');
  });

  it('counts the polls of a polling endpoint, waiting and done', () => {
    const request = { method: 'POST', url: 'http://x/jobs' };
    expect(
      stepNote({
        ...base,
        status: 'Waiting',
        wakeAt: '2026-01-01T00:00:00.000Z',
        request,
        response: { status: 200, polling: { polls: 1 } },
      }),
    ).toBe('until 2026-01-01T00:00:00.000Z · 1 poll');
    expect(stepNote({ ...base, request, response: { status: 200, polling: { polls: 4 } } })).toBe(
      'POST http://x/jobs · 4 polls',
    );
  });
});
