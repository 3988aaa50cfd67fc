import { useEffect, useId, useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { ExpressionInput } from '../expression-input.js';
import type { ExpressionScope } from '../expression-completions.js';

export type Config = Record<string, unknown>;

export interface ConfigFormProps {
  config: Config;
  onChange(config: Config): void;
  scope: ExpressionScope;
  /** Problems by config path (`url`, `cases.0.value`), from the node type's schema. */
  errors: ReadonlyMap<string, string>;
}

/** The node type's own schema read over a config: each problem by its dotted path. */
export function configErrors(schema: z.ZodType, config: unknown): Map<string, string> {
  const parsed = schema.safeParse(config);
  const errors = new Map<string, string>();
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      if (!errors.has(key)) errors.set(key, issue.message);
    }
  }
  return errors;
}

/** `config` with `value` at `key`; undefined or '' removes an optional key. */
export function withField(config: Config, key: string, value: unknown, keepEmpty = false): Config {
  const next = { ...config };
  if (value === undefined || (value === '' && !keepEmpty)) delete next[key];
  else next[key] = value;
  return next;
}

/** A value typed into a field: JSON when it reads as JSON (numbers, booleans, null), else text. */
export function parseLoose(text: string): unknown {
  if (text.trim() === '') return '';
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const showLoose = (value: unknown): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

export function Field({
  label,
  error,
  children,
  hint,
}: {
  label: string;
  error?: string;
  hint?: string;
  children: (id: string, describedBy?: string) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(id, error ? errorId : undefined)}
      {hint && !error && <span className="muted small">{hint}</span>}
      {error && (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

export function TextField(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  hint?: string;
  placeholder?: string;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint}>
      {(id, describedBy) => (
        <input
          id={id}
          className="nodrag"
          value={props.value}
          placeholder={props.placeholder}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

export function ExprField(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  scope: ExpressionScope;
  error?: string;
  multiline?: boolean;
  placeholder?: string;
}) {
  return (
    <Field label={props.label} error={props.error}>
      {(_id, describedBy) => (
        <ExpressionInput
          label={props.label}
          value={props.value}
          onChange={props.onChange}
          scope={props.scope}
          multiline={props.multiline}
          placeholder={props.placeholder}
          invalid={!!props.error}
          describedBy={describedBy}
        />
      )}
    </Field>
  );
}

export function SelectField<T extends string>(props: {
  label: string;
  value: T;
  options: readonly T[];
  onChange(value: T): void;
  error?: string;
}) {
  return (
    <Field label={props.label} error={props.error}>
      {(id) => (
        <select id={id} className="nodrag" value={props.value} onChange={(e) => props.onChange(e.target.value as T)}>
          {props.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function NumberField(props: {
  label: string;
  value: number | undefined;
  onChange(value: number | undefined): void;
  error?: string;
  min?: number;
}) {
  return (
    <Field label={props.label} error={props.error}>
      {(id) => (
        <input
          id={id}
          type="number"
          className="nodrag"
          min={props.min}
          value={props.value ?? ''}
          onChange={(e) => props.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        />
      )}
    </Field>
  );
}

export function CheckField(props: { label: string; checked: boolean; onChange(checked: boolean): void }) {
  return (
    <label className="check">
      <input
        type="checkbox"
        className="nodrag"
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.label}
    </label>
  );
}

/** Name → value rows (headers, query, inputs, variables); values may hold templates. */
export function KeyValueField(props: {
  label: string;
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown>): void;
  scope: ExpressionScope;
  error?: string;
  loose?: boolean;
}) {
  const rows = Object.entries(props.value ?? {});
  const write = (next: [string, unknown][]) => props.onChange(Object.fromEntries(next));
  return (
    <fieldset className="kv">
      <legend>{props.label}</legend>
      {rows.map(([key, value], index) => (
        <div className="kv-row" key={index}>
          <input
            className="nodrag"
            aria-label={`${props.label} name ${index + 1}`}
            value={key}
            onChange={(e) => write(rows.map((row, i) => (i === index ? [e.target.value, row[1]] : row)))}
          />
          <ExpressionInput
            label={`${props.label} value ${index + 1}`}
            value={showLoose(value)}
            scope={props.scope}
            onChange={(text) =>
              write(rows.map((row, i) => (i === index ? [row[0], props.loose ? parseLoose(text) : text] : row)))
            }
          />
          <button
            type="button"
            aria-label={`Remove ${props.label} ${key || index + 1}`}
            onClick={() => write(rows.filter((_, i) => i !== index))}
          >
            ×
          </button>
        </div>
      ))}
      <button type="button" onClick={() => write([...rows, [`name${rows.length + 1}`, '']])}>
        Add
      </button>
      {props.error && (
        <span className="field-error" role="alert">
          {props.error}
        </span>
      )}
    </fieldset>
  );
}

/** A JSON value edited as text: kept as typed until it parses. */
export function JsonField(props: { label: string; value: unknown; onChange(value: unknown): void; error?: string }) {
  const [text, setText] = useState(() => (props.value === undefined ? '' : JSON.stringify(props.value, null, 2)));
  const [problem, setProblem] = useState<string | undefined>();
  useEffect(() => {
    setText((current) => {
      try {
        if (JSON.stringify(JSON.parse(current)) === JSON.stringify(props.value)) return current;
      } catch {
        return current;
      }
      return props.value === undefined ? '' : JSON.stringify(props.value, null, 2);
    });
  }, [props.value]);
  return (
    <Field label={props.label} error={problem ?? props.error}>
      {(id, describedBy) => (
        <textarea
          id={id}
          className="nodrag code"
          rows={5}
          value={text}
          aria-describedby={describedBy}
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value.trim() === '') {
              setProblem(undefined);
              props.onChange(undefined);
              return;
            }
            try {
              const parsed: unknown = JSON.parse(e.target.value);
              setProblem(undefined);
              props.onChange(parsed);
            } catch (error) {
              setProblem(`not JSON yet: ${(error as Error).message}`);
            }
          }}
        />
      )}
    </Field>
  );
}
