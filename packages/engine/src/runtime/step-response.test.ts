import { describe, expect, it } from 'vitest';
import { compactResponse, expandResponse } from './step-response.js';

describe('stored responses', () => {
  const body = { id: 'ord_1', total: 10 };
  const output = { statusCode: 201, headers: { 'content-type': 'application/json' }, body };

  it('leave out headers and body that the output holds, and a view puts them back', () => {
    const traced = { status: 201, headers: { 'content-type': 'application/json' }, body, size: 27 };
    const stored = compactResponse(traced, output);
    expect(stored).toEqual({ status: 201, size: 27, sameAsOutput: true });
    expect(expandResponse(JSON.parse(JSON.stringify(stored)), JSON.parse(JSON.stringify(output)))).toEqual(traced);
  });

  it('keep a body the trace cut or redacted, and headers that differ', () => {
    const cut = { status: 201, headers: output.headers, body: '{"id":"ord_1"…[truncated]', size: 27 };
    expect(compactResponse(cut, output)).toBe(cut);
    const masked = { status: 201, headers: { 'set-cookie': '***' }, body, size: 27 };
    expect(compactResponse(masked, { ...output, headers: { 'set-cookie': 'session=abc' } })).toBe(masked);
    expect(compactResponse(null, output)).toBeNull();
    expect(expandResponse({ status: 500 }, output)).toEqual({ status: 500 });
  });
});
