import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../api/client.js';
import { SessionContext } from '../../api/session.js';
import type { ExpressionScope } from '../expression-completions.js';
import { CONFIG_FORMS } from './config-forms.js';
import { configErrors, type Config } from './fields.js';

const scope: ExpressionScope = {
  upstream: [{ name: 'CreateOrder', type: 'endpoint' }],
  responseFields: {},
  flowVars: [],
  envNames: ['baseUrl'],
};

/** A form of `type` holding its config in state, as the side panel does; `seen` gets every change. */
function Harness({ type, initial, seen }: { type: string; initial: Config; seen(config: Config): void }) {
  const { schema, Form } = CONFIG_FORMS[type]!;
  const [config, setConfig] = useState(initial);
  return (
    <Form
      config={config}
      scope={scope}
      errors={configErrors(schema, config)}
      onChange={(next) => {
        seen(next);
        setConfig(next);
      }}
    />
  );
}

function renderForm(type: string, initial: Config) {
  const seen = vi.fn();
  // The subflow form lists flows; these forms are tested without a server, so the list is empty.
  const api = { get: async () => ({ items: [], nextCursor: null }), send: vi.fn() } as unknown as ApiClient;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SessionContext.Provider value={{ api, label: 'test', signOut: () => undefined }}>
        <Harness type={type} initial={initial} seen={seen} />
      </SessionContext.Provider>
    </QueryClientProvider>,
  );
  return { last: () => seen.mock.calls.at(-1)?.[0] as Config };
}

afterEach(cleanup);

describe('config forms', () => {
  it('has a form for every node type the palette offers', async () => {
    const { NODE_KINDS } = await import('../node-kinds.js');
    for (const kind of NODE_KINDS) {
      expect(CONFIG_FORMS[kind.type], kind.type).toBeDefined();
      // A new node's starting config is one its type's schema reads (a Switch case waits for a source).
      const problems = [...configErrors(CONFIG_FORMS[kind.type]!.schema, kind.defaultConfig()).keys()];
      expect(
        problems.every((path) => path.startsWith('cases.0') || path === 'flowId' || path === 'source'),
        `${kind.type}: ${problems}`,
      ).toBe(true);
    }
  });

  it('endpoint: edits the URL and shows the engine schema’s problem when it is empty', () => {
    const form = renderForm('endpoint', { method: 'GET', url: '{{env.baseUrl}}/a' });
    const url = screen.getByRole('combobox', { name: 'URL' });
    fireEvent.change(url, { target: { value: '' } });
    expect(form.last()).toMatchObject({ url: '' });
    expect(screen.getByRole('alert').textContent).toMatch(/too small|at least|>=\s*1/i);
    fireEvent.change(url, { target: { value: 'https://api.example.com/orders' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(screen.getByLabelText('Method'), { target: { value: 'POST' } });
    expect(form.last()).toMatchObject({ method: 'POST', url: 'https://api.example.com/orders' });
  });

  it('endpoint: retry and assertions write the engine’s field names', () => {
    const form = renderForm('endpoint', { method: 'GET', url: 'https://x' });
    fireEvent.click(screen.getByLabelText('Retry failed requests'));
    expect(form.last().retry).toMatchObject({ maxAttempts: 3, onStatuses: [429, 502, 503, 504], onNetworkError: true });
    fireEvent.change(screen.getByLabelText('Max attempts'), { target: { value: '5' } });
    expect((form.last().retry as Config).maxAttempts).toBe(5);
    fireEvent.click(screen.getAllByRole('button', { name: 'Add' }).at(2)!);
    expect(form.last().assertions).toEqual([{ target: 'statusCode', operator: '==', value: 200 }]);
  });

  it('switch: cases with the 12 operators, a unary operator drops the value, expression mode', () => {
    const form = renderForm('switch', {
      mode: 'cases',
      cases: [{ label: 'ok', source: '{{CreateOrder.statusCode}}', operator: '==', value: 200 }],
      default: true,
    });
    const operator = screen.getByLabelText('Case 1 operator') as HTMLSelectElement;
    expect([...operator.options].map((o) => o.value)).toHaveLength(12);
    fireEvent.change(operator, { target: { value: 'is_empty' } });
    expect(form.last().cases).toEqual([{ label: 'ok', source: '{{CreateOrder.statusCode}}', operator: 'is_empty' }]);
    expect(screen.queryByLabelText('Case 1 value')).toBeNull();
    fireEvent.change(screen.getByLabelText('Mode'), { target: { value: 'expression' } });
    expect(form.last()).toMatchObject({ mode: 'expression', cases: [{ label: 'ok', expression: 'true' }] });
    fireEvent.click(screen.getByRole('button', { name: 'Add case' }));
    expect((form.last().cases as unknown[]).length).toBe(2);
  });

  it('webhook: a verification method asks for what it needs', () => {
    const form = renderForm('component-webhook', { mode: 'wait', verification: { method: 'None' } });
    fireEvent.change(screen.getAllByLabelText('Method')[0]!, { target: { value: 'HMAC-SHA256' } });
    expect(form.last().verification).toEqual({ method: 'HMAC-SHA256' });
    expect(screen.getByRole('alert').textContent).toContain('HMAC-SHA256 verification needs secret');
    fireEvent.change(screen.getByRole('combobox', { name: 'Secret' }), { target: { value: '{{env.secret}}' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('expression fields offer completions and insert the chosen one', () => {
    const form = renderForm('for', { items: '' });
    const items = screen.getByRole('combobox', { name: 'Items' });
    fireEvent.change(items, { target: { value: '{{Cre', selectionStart: 5 } });
    const options = screen.getAllByRole('option');
    expect(options[0]!.textContent).toContain('CreateOrder.statusCode');
    fireEvent.keyDown(items, { key: 'ArrowDown' });
    fireEvent.keyDown(items, { key: 'Enter' });
    expect(form.last().items).toMatch(/^\{\{CreateOrder\.[\w.]+\}\}$/);
  });
});
