import { COMPARISON_OPERATORS } from '@svc/engine/flow-model';
import {
  CheckField,
  ExprField,
  parseLoose,
  SelectField,
  showLoose,
  TextField,
  withField,
  type ConfigFormProps,
} from './fields.js';

type Case = Record<string, unknown>;
const UNARY = new Set(['is_empty', 'is_not_empty']);

/** The Switch node: cases in order (source, one of the 12 operators, value) or JavaScript expressions. */
export function SwitchForm({ config, onChange, scope, errors }: ConfigFormProps) {
  const mode = config.mode === 'expression' ? 'expression' : 'cases';
  const cases = (Array.isArray(config.cases) ? config.cases : []) as Case[];
  const setCases = (next: Case[]) => onChange({ ...config, cases: next });
  const setCase = (index: number, next: Case) => setCases(cases.map((entry, i) => (i === index ? next : entry)));
  const switchMode = (next: 'cases' | 'expression') =>
    onChange({
      ...config,
      mode: next,
      cases: cases.map(({ label }) =>
        next === 'expression' ? { label, expression: 'true' } : { label, source: '', operator: '==', value: '' },
      ),
    });
  return (
    <div className="form">
      <SelectField label="Mode" value={mode} options={['cases', 'expression'] as const} onChange={switchMode} />
      <ol className="cases">
        {cases.map((entry, index) => {
          const at = (field: string) => errors.get(`cases.${index}.${field}`) ?? errors.get(`cases.${index}`);
          return (
            <li key={index} className="case">
              <div className="case-head">
                <span className="badge switch-badge">case-{index}</span>
                <button
                  type="button"
                  aria-label={`Remove case ${index + 1}`}
                  disabled={cases.length === 1}
                  onClick={() => setCases(cases.filter((_, i) => i !== index))}
                >
                  ×
                </button>
              </div>
              <TextField
                label={`Case ${index + 1} label`}
                value={showLoose(entry.label)}
                onChange={(v) => setCase(index, withField(entry, 'label', v))}
              />
              {mode === 'expression' ? (
                <ExprField
                  label={`Case ${index + 1} expression`}
                  value={showLoose(entry.expression)}
                  onChange={(v) => setCase(index, withField(entry, 'expression', v, true))}
                  scope={scope}
                  error={at('expression')}
                  placeholder="ResponseBinding.CreateOrder.body.total > 100"
                />
              ) : (
                <>
                  <ExprField
                    label={`Case ${index + 1} source`}
                    value={showLoose(entry.source)}
                    onChange={(v) => setCase(index, withField(entry, 'source', v, true))}
                    scope={scope}
                    error={at('source')}
                    placeholder="{{CreateOrder.statusCode}}"
                  />
                  <SelectField
                    label={`Case ${index + 1} operator`}
                    value={String(entry.operator ?? '==') as '=='}
                    options={COMPARISON_OPERATORS}
                    onChange={(v) =>
                      setCase(
                        index,
                        UNARY.has(v)
                          ? withField({ ...entry, operator: v }, 'value', undefined)
                          : { ...entry, operator: v },
                      )
                    }
                    error={at('operator')}
                  />
                  {!UNARY.has(String(entry.operator)) && (
                    <TextField
                      label={`Case ${index + 1} value`}
                      value={showLoose(entry.value)}
                      onChange={(v) => setCase(index, withField(entry, 'value', parseLoose(v), true))}
                      error={at('value')}
                    />
                  )}
                </>
              )}
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        onClick={() =>
          setCases([
            ...cases,
            mode === 'expression'
              ? { label: `case${cases.length + 1}`, expression: 'true' }
              : { label: `case${cases.length + 1}`, source: '', operator: '==', value: '' },
          ])
        }
      >
        Add case
      </button>
      <CheckField
        label="Default branch when no case matches"
        checked={config.default !== false}
        onChange={(v) => onChange({ ...config, default: v })}
      />
      {errors.get('cases') && (
        <span className="field-error" role="alert">
          {errors.get('cases')}
        </span>
      )}
    </div>
  );
}
