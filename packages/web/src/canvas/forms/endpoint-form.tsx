import { COMPARISON_OPERATORS, HTTP_METHODS, POLLING_RULE_OPERATORS } from '@svc/engine/flow-model';
import {
  CheckField,
  ExprField,
  JsonField,
  KeyValueField,
  NumberField,
  parseLoose,
  SelectField,
  showLoose,
  TextField,
  withField,
  type Config,
  type ConfigFormProps,
} from './fields.js';

type Row = Record<string, unknown>;
const rowsOf = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
const csv = (value: unknown) => (Array.isArray(value) ? value.map(showLoose).join(', ') : '');
const fromCsv = (text: string, numbers = false) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => (numbers ? Number(part) : parseLoose(part)));

const DEFAULT_RETRY = {
  maxAttempts: 3,
  initialDelay: '200ms',
  maxDelay: '5s',
  factor: 2,
  onStatuses: [429, 502, 503, 504],
  onNetworkError: true,
};
const DEFAULT_POLLING = {
  enabled: true,
  interval: '2s',
  maxDuration: '5m',
  request: { method: 'GET', url: '' },
  stopWhen: [{ target: 'body.status', operator: 'EQUALS', values: ['COMPLETED'] }],
  continueWhen: [],
};

function RuleTable(props: {
  label: string;
  rows: Row[];
  operators: readonly string[];
  valuesKey: 'value' | 'values';
  onChange(rows: Row[]): void;
  errors: ReadonlyMap<string, string>;
  errorPrefix: string;
}) {
  const { rows, onChange } = props;
  const set = (index: number, patch: Row) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className="rules">
      <legend>{props.label}</legend>
      {rows.map((row, index) => {
        const error = [...props.errors].find(([path]) => path.startsWith(`${props.errorPrefix}.${index}`))?.[1];
        return (
          <div className="rule-row" key={index}>
            <input
              className="nodrag"
              aria-label={`${props.label} ${index + 1} target`}
              value={showLoose(row.target)}
              onChange={(e) => set(index, { target: e.target.value })}
            />
            <select
              className="nodrag"
              aria-label={`${props.label} ${index + 1} operator`}
              value={String(row.operator ?? '==')}
              onChange={(e) => set(index, { operator: e.target.value })}
            >
              {props.operators.map((op) => (
                <option key={op}>{op}</option>
              ))}
            </select>
            <input
              className="nodrag"
              aria-label={`${props.label} ${index + 1} ${props.valuesKey}`}
              value={props.valuesKey === 'values' ? csv(row.values) : showLoose(row.value)}
              onChange={(e) =>
                set(
                  index,
                  props.valuesKey === 'values'
                    ? { values: fromCsv(e.target.value) }
                    : { value: parseLoose(e.target.value) },
                )
              }
            />
            <button
              type="button"
              aria-label={`Remove ${props.label} ${index + 1}`}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              ×
            </button>
            {error && (
              <span className="field-error" role="alert">
                {error}
              </span>
            )}
          </div>
        );
      })}
      <button
        type="button"
        onClick={() =>
          onChange([
            ...rows,
            props.valuesKey === 'values'
              ? { target: 'body.status', operator: 'EQUALS', values: [] }
              : { target: 'statusCode', operator: '==', value: 200 },
          ])
        }
      >
        Add
      </button>
    </fieldset>
  );
}

/** The endpoint node: method, URL, query, headers, body, timeout, assertions, retry, polling. */
export function EndpointForm({ config, onChange, scope, errors }: ConfigFormProps) {
  const set = (key: string, value: unknown) => onChange(withField(config, key, value));
  const retry = config.retry as Config | undefined;
  const polling = config.polling as Config | undefined;
  const pollingRequest = (polling?.request ?? {}) as Config;
  const setRetry = (key: string, value: unknown) => set('retry', withField(retry ?? {}, key, value));
  const setPolling = (key: string, value: unknown) => set('polling', withField(polling ?? {}, key, value));
  return (
    <div className="form">
      <div className="row">
        <SelectField
          label="Method"
          value={String(config.method ?? 'GET').toUpperCase()}
          options={HTTP_METHODS}
          onChange={(v) => set('method', v)}
        />
        <SelectField
          label="Body type"
          value={String(config.bodyType ?? 'json') as 'json'}
          options={['json', 'text', 'form'] as const}
          onChange={(v) => set('bodyType', v)}
        />
      </div>
      <ExprField
        label="URL"
        value={String(config.url ?? '')}
        onChange={(v) => onChange(withField(config, 'url', v, true))}
        scope={scope}
        error={errors.get('url')}
        placeholder="{{env.baseUrl}}/orders"
      />
      <KeyValueField
        label="Query"
        value={(config.query as Config) ?? {}}
        onChange={(v) => set('query', v)}
        scope={scope}
        error={errors.get('query')}
      />
      <KeyValueField
        label="Headers"
        value={(config.headers as Config) ?? {}}
        onChange={(v) => set('headers', v)}
        scope={scope}
        error={errors.get('headers')}
      />
      {config.bodyType === 'text' ? (
        <ExprField
          label="Body"
          multiline
          value={showLoose(config.body)}
          onChange={(v) => set('body', v)}
          scope={scope}
        />
      ) : (
        <JsonField
          label="Body (JSON)"
          value={config.body}
          onChange={(v) => set('body', v)}
          error={errors.get('body')}
        />
      )}
      <TextField
        label="Timeout"
        value={showLoose(config.timeout)}
        onChange={(v) => set('timeout', v)}
        error={errors.get('timeout')}
        hint="e.g. 10s, 500ms"
      />
      <RuleTable
        label="Assertions"
        rows={rowsOf(config.assertions)}
        operators={COMPARISON_OPERATORS}
        valuesKey="value"
        onChange={(rows) => set('assertions', rows.length ? rows : undefined)}
        errors={errors}
        errorPrefix="assertions"
      />
      <fieldset>
        <legend>Retry</legend>
        <CheckField
          label="Retry failed requests"
          checked={retry !== undefined}
          onChange={(on) => set('retry', on ? DEFAULT_RETRY : undefined)}
        />
        {retry && (
          <>
            <div className="row">
              <NumberField
                label="Max attempts"
                min={1}
                value={retry.maxAttempts as number}
                onChange={(v) => setRetry('maxAttempts', v)}
                error={errors.get('retry.maxAttempts')}
              />
              <NumberField
                label="Factor"
                min={1}
                value={retry.factor as number}
                onChange={(v) => setRetry('factor', v)}
                error={errors.get('retry.factor')}
              />
            </div>
            <div className="row">
              <TextField
                label="Initial delay"
                value={showLoose(retry.initialDelay)}
                onChange={(v) => setRetry('initialDelay', v)}
                error={errors.get('retry.initialDelay')}
              />
              <TextField
                label="Max delay"
                value={showLoose(retry.maxDelay)}
                onChange={(v) => setRetry('maxDelay', v)}
                error={errors.get('retry.maxDelay')}
              />
            </div>
            <TextField
              label="On statuses"
              value={csv(retry.onStatuses)}
              onChange={(v) => setRetry('onStatuses', fromCsv(v, true))}
              error={errors.get('retry.onStatuses')}
            />
            <CheckField
              label="On network errors"
              checked={retry.onNetworkError !== false}
              onChange={(v) => setRetry('onNetworkError', v)}
            />
          </>
        )}
      </fieldset>
      <fieldset>
        <legend>Polling</legend>
        <CheckField
          label="Poll a status URL after the request"
          checked={polling !== undefined}
          onChange={(on) => set('polling', on ? DEFAULT_POLLING : undefined)}
        />
        {polling && (
          <>
            <div className="row">
              <TextField
                label="Interval"
                value={showLoose(polling.interval)}
                onChange={(v) => setPolling('interval', v)}
                error={errors.get('polling.interval')}
              />
              <TextField
                label="Max duration"
                value={showLoose(polling.maxDuration)}
                onChange={(v) => setPolling('maxDuration', v)}
                error={errors.get('polling.maxDuration')}
              />
            </div>
            <ExprField
              label="Status URL"
              value={String(pollingRequest.url ?? '')}
              onChange={(v) => setPolling('request', { ...pollingRequest, url: v })}
              scope={scope}
              error={errors.get('polling.request.url')}
              placeholder="{{env.baseUrl}}/jobs/{{self.response.body.jobId}}"
            />
            <RuleTable
              label="Stop when"
              rows={rowsOf(polling.stopWhen)}
              operators={POLLING_RULE_OPERATORS}
              valuesKey="values"
              onChange={(rows) => setPolling('stopWhen', rows)}
              errors={errors}
              errorPrefix="polling.stopWhen"
            />
            <RuleTable
              label="Continue when"
              rows={rowsOf(polling.continueWhen)}
              operators={POLLING_RULE_OPERATORS}
              valuesKey="values"
              onChange={(rows) => setPolling('continueWhen', rows)}
              errors={errors}
              errorPrefix="polling.continueWhen"
            />
          </>
        )}
      </fieldset>
    </div>
  );
}
