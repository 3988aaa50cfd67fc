import { describe, expect, it } from 'vitest';
import { pollingRuleSchema, type PollingRule } from '../../model/configs/polling-config.js';
import { decide, describeRule, ruleHolds } from './polling-rules.js';

const rule = (operator: string, values?: unknown[], target = 'body.status'): PollingRule =>
  pollingRuleSchema.parse(values === undefined ? { target, operator } : { target, operator, values });

const subject = (body: unknown, statusCode = 200) => ({
  statusCode,
  latencyMs: 3,
  headers: { 'x-state': 'busy' },
  body,
});

describe('polling rules', () => {
  it('EQUALS matches any listed value, NOT_EQUALS none of them', () => {
    expect(ruleHolds(rule('EQUALS', ['PENDING', 'IN_PROGRESS']), 'IN_PROGRESS')).toBe(true);
    expect(ruleHolds(rule('EQUALS', ['PENDING', 'IN_PROGRESS']), 'COMPLETED')).toBe(false);
    expect(ruleHolds(rule('EQUALS', [200]), '200')).toBe(true);
    expect(ruleHolds(rule('NOT_EQUALS', ['FAILED', 'CANCELLED']), 'PENDING')).toBe(true);
    expect(ruleHolds(rule('NOT_EQUALS', ['FAILED', 'CANCELLED']), 'CANCELLED')).toBe(false);
  });

  it('CONTAINS reads strings and arrays; EXISTS holds for any value but a missing one or null', () => {
    expect(ruleHolds(rule('CONTAINS', ['DONE']), 'ALL_DONE')).toBe(true);
    expect(ruleHolds(rule('CONTAINS', ['b', 'z']), ['a', 'b'])).toBe(true);
    expect(ruleHolds(rule('CONTAINS', ['z']), ['a', 'b'])).toBe(false);
    expect(ruleHolds(rule('EXISTS'), 0)).toBe(true);
    expect(ruleHolds(rule('EXISTS'), false)).toBe(true);
    expect(ruleHolds(rule('EXISTS'), null)).toBe(false);
    expect(ruleHolds(rule('EXISTS'), undefined)).toBe(false);
  });

  it('takes the switch operators, with one value or several', () => {
    expect(ruleHolds(rule('>=', [100]), 100)).toBe(true);
    expect(ruleHolds(rule('<', [50]), 99)).toBe(false);
    expect(ruleHolds(rule('starts_with', ['IN_']), 'IN_PROGRESS')).toBe(true);
    expect(ruleHolds(rule('ends_with', ['ED', 'ING']), 'PENDING')).toBe(true);
    expect(ruleHolds(rule('not_contains', ['ERR', 'FAIL']), 'RUNNING')).toBe(true);
    expect(ruleHolds(rule('not_contains', ['ERR', 'FAIL']), 'FAILED')).toBe(false);
    expect(ruleHolds(rule('!=', ['a', 'b']), 'b')).toBe(false);
    expect(ruleHolds(rule('is_empty'), [])).toBe(true);
    expect(ruleHolds(rule('is_not_empty'), { id: 1 })).toBe(true);
    expect(ruleHolds(pollingRuleSchema.parse({ target: 'body.n', operator: '==', value: 3 }), 3)).toBe(true);
  });

  it('describes a rule as its errors name it', () => {
    expect(describeRule(rule('EQUALS', ['PENDING', 'IN_PROGRESS']))).toBe(
      'body.status EQUALS ["PENDING","IN_PROGRESS"]',
    );
    expect(describeRule(rule('EQUALS', ['DONE']))).toBe('body.status EQUALS "DONE"');
    expect(describeRule(rule('EXISTS', undefined, 'body.result'))).toBe('body.result EXISTS');
  });
});

describe('deciding from a status response', () => {
  const continueWhen = [rule('EQUALS', ['PENDING', 'IN_PROGRESS'])];
  const stopWhen = [rule('EQUALS', ['COMPLETED'])];

  it('stops on stopWhen, continues on continueWhen, and finds anything else unexpected', () => {
    expect(decide({ continueWhen, stopWhen }, subject({ status: 'COMPLETED' }))).toEqual({
      kind: 'stop',
      matched: true,
      seen: { 'body.status': 'COMPLETED' },
    });
    expect(decide({ continueWhen, stopWhen }, subject({ status: 'PENDING' })).kind).toBe('continue');
    expect(decide({ continueWhen, stopWhen }, subject({ status: 'FAILED' }))).toEqual({
      kind: 'unexpected',
      matched: false,
      seen: { 'body.status': 'FAILED' },
    });
  });

  it('with one table, lets the absence of a match decide the other way', () => {
    expect(decide({ continueWhen: [], stopWhen }, subject({ status: 'QUEUED' }))).toMatchObject({
      kind: 'continue',
      matched: false,
    });
    expect(decide({ continueWhen, stopWhen: [] }, subject({ status: 'FAILED' }))).toMatchObject({
      kind: 'stop',
      matched: false,
    });
  });

  it('reads every target, headers and statusCode too, so that the trace shows each', () => {
    const decision = decide(
      {
        continueWhen: [rule('EQUALS', ['busy'], 'headers.X-State')],
        stopWhen: [rule('EQUALS', [303], 'statusCode'), rule('EXISTS', undefined, 'body.result')],
      },
      subject({ status: 'RUNNING' }),
    );
    expect(decision).toEqual({
      kind: 'continue',
      matched: true,
      seen: { statusCode: 200, 'body.result': undefined, 'headers.X-State': 'busy' },
    });
  });

  it('fails on a target path that does not parse, naming the table', () => {
    expect(() =>
      decide({ continueWhen: [], stopWhen: [rule('EQUALS', ['x'], 'body.items[first]')] }, subject({})),
    ).toThrow(
      expect.objectContaining({ code: 'INVALID_PATH', message: expect.stringContaining('polling.stopWhen target') }),
    );
  });
});
