import { VERIFICATION_METHODS, WEBHOOK_MODES } from '@svc/engine/flow-model';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/session.js';
import type { FlowSummary, Page } from '../../api/types.js';
import {
  ExprField,
  Field,
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

export function ForForm({ config, onChange, scope, errors }: ConfigFormProps) {
  return (
    <div className="form">
      <ExprField
        label="Items"
        value={showLoose(config.items)}
        onChange={(v) => onChange({ ...config, items: v })}
        scope={scope}
        error={errors.get('items')}
        placeholder="{{GetOrders.response.body.items}}"
      />
      <NumberField
        label="Concurrency"
        min={1}
        value={config.concurrency as number | undefined}
        onChange={(v) => onChange(withField(config, 'concurrency', v))}
        error={errors.get('concurrency')}
      />
      <p className="muted small">The L handle runs per item (read it as Name.item, index, total); D runs after all.</p>
    </div>
  );
}

export function RepeatForm({ config, onChange, scope, errors }: ConfigFormProps) {
  return (
    <div className="form">
      <ExprField
        label="Count"
        value={showLoose(config.count)}
        onChange={(v) => onChange({ ...config, count: /^\d+$/.test(v) ? Number(v) : v })}
        scope={scope}
        error={errors.get('count')}
      />
      <ExprField
        label="Break when"
        value={showLoose(config.breakWhen)}
        onChange={(v) => onChange(withField(config, 'breakWhen', v))}
        scope={scope}
        error={errors.get('breakWhen')}
      />
    </div>
  );
}

export function CollectForm({ config, onChange, scope, errors }: ConfigFormProps) {
  return (
    <div className="form">
      <SelectField
        label="Mode"
        value={String(config.mode ?? 'Append') as 'Append'}
        options={['Append', 'Merge'] as const}
        onChange={(v) => onChange({ ...config, mode: v })}
        error={errors.get('mode')}
      />
      <ExprField
        label="Source"
        value={showLoose(config.source)}
        onChange={(v) => onChange({ ...config, source: v })}
        scope={scope}
        error={errors.get('source')}
        placeholder="{{GetOrder.response.body}}"
      />
    </div>
  );
}

export function SubflowForm({ config, onChange, scope, errors }: ConfigFormProps) {
  const api = useApi();
  const flows = useQuery({
    queryKey: ['flows', ''],
    queryFn: () => api.get<Page<FlowSummary>>('/api/gateway/flows?limit=200'),
  });
  return (
    <div className="form">
      <Field label="Flow" error={errors.get('flowId')}>
        {(id) => (
          <select
            id={id}
            className="nodrag"
            value={String(config.flowId ?? '')}
            onChange={(e) => onChange({ ...config, flowId: e.target.value })}
          >
            <option value="">Choose a flow…</option>
            {(flows.data?.items ?? []).map((flow) => (
              <option key={flow.id} value={flow.id}>
                {flow.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <KeyValueField
        label="Inputs"
        value={(config.inputs as Config) ?? {}}
        onChange={(v) => onChange({ ...config, inputs: v })}
        scope={scope}
        loose
        error={errors.get('inputs')}
      />
      <SelectField
        label="On failure"
        value={String(config.onFailure ?? 'halt') as 'halt'}
        options={['halt', 'fallback', 'continue'] as const}
        onChange={(v) => onChange({ ...config, onFailure: v })}
      />
    </div>
  );
}

export function WebhookForm({ config, onChange, scope, errors }: ConfigFormProps) {
  const verification = (config.verification ?? { method: 'None' }) as Config;
  const method = String(verification.method ?? 'None');
  const setVerification = (key: string, value: unknown) =>
    onChange({ ...config, verification: withField(verification, key, value) });
  const at = (field: string) => errors.get(`verification.${field}`);
  return (
    <div className="form">
      <SelectField
        label="Mode"
        value={String(config.mode ?? 'wait') as 'wait'}
        options={WEBHOOK_MODES}
        onChange={(v) => onChange({ ...config, mode: v })}
      />
      <TextField
        label="Path"
        value={showLoose(config.path)}
        onChange={(v) => onChange(withField(config, 'path', v))}
        error={errors.get('path')}
        hint="auto, or a path such as orders/paid"
      />
      {config.mode !== 'trigger' && (
        <NumberField
          label="Timeout (minutes)"
          min={1}
          value={config.timeoutMinutes as number | undefined}
          onChange={(v) => onChange(withField(config, 'timeoutMinutes', v))}
          error={errors.get('timeoutMinutes')}
        />
      )}
      <fieldset>
        <legend>Verification</legend>
        <SelectField
          label="Method"
          value={method as 'None'}
          options={VERIFICATION_METHODS}
          onChange={(v) => setVerification('method', v)}
        />
        {method !== 'None' && method !== 'Pre-script' && method !== 'Standard Webhooks' && (
          <TextField
            label="Header"
            value={showLoose(verification.header)}
            onChange={(v) => setVerification('header', v)}
            error={at('header')}
            placeholder="X-Signature"
          />
        )}
        {['HMAC-SHA256', 'HMAC-SHA1', 'Standard Webhooks', 'Bearer Token'].includes(method) && (
          <ExprField
            label="Secret"
            value={showLoose(verification.secret)}
            onChange={(v) => setVerification('secret', v)}
            scope={scope}
            error={at('secret')}
            placeholder="{{env.webhookSecret}}"
          />
        )}
        {method === 'Custom Header' && (
          <ExprField
            label="Expected value"
            value={showLoose(verification.value)}
            onChange={(v) => setVerification('value', v)}
            scope={scope}
            error={at('value')}
          />
        )}
        {method.startsWith('HMAC') && (
          <div className="row">
            <TextField
              label="Timestamp header"
              value={showLoose(verification.timestampHeader)}
              onChange={(v) => setVerification('timestampHeader', v)}
              error={at('timestampHeader')}
            />
            <NumberField
              label="Tolerance (s)"
              min={1}
              value={verification.toleranceSeconds as number | undefined}
              onChange={(v) => setVerification('toleranceSeconds', v)}
              error={at('toleranceSeconds')}
            />
          </div>
        )}
        {method === 'Pre-script' && (
          <ExprField
            label="Script"
            multiline
            value={showLoose(verification.script)}
            onChange={(v) => setVerification('script', v)}
            scope={scope}
            error={at('script')}
          />
        )}
      </fieldset>
      <JsonField
        label="Payload schema (JSON Schema)"
        value={config.payloadSchema}
        onChange={(v) => onChange(withField(config, 'payloadSchema', v))}
        error={errors.get('payloadSchema')}
      />
    </div>
  );
}

export function VariablesForm({ config, onChange, scope, errors }: ConfigFormProps) {
  return (
    <div className="form">
      <KeyValueField
        label="Set flowVars"
        value={(config.set as Config) ?? {}}
        onChange={(v) => onChange({ ...config, set: v })}
        scope={scope}
        loose
        error={[...errors].find(([p]) => p.startsWith('set'))?.[1]}
      />
    </div>
  );
}

export function DelayForm({ config, onChange, errors }: ConfigFormProps) {
  return (
    <div className="form">
      <TextField
        label="Duration"
        value={showLoose(config.duration)}
        onChange={(v) => onChange({ ...config, duration: /^\d+$/.test(v) ? Number(v) : parseLoose(v) })}
        error={errors.get('duration')}
        hint="milliseconds, or 500ms, 2s, 5m, 1h"
      />
    </div>
  );
}
