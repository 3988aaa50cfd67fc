import { useId, useRef, useState, type KeyboardEvent } from 'react';
import {
  applyCompletion,
  expressionCompletions,
  type CompletionResult,
  type ExpressionScope,
} from './expression-completions.js';

export interface ExpressionInputProps {
  value: string;
  onChange(value: string): void;
  scope: ExpressionScope;
  label: string;
  multiline?: boolean;
  placeholder?: string;
  invalid?: boolean;
  describedBy?: string;
}

/**
 * A text field that offers `{{…}}` completions as you type: upstream nodes and their response
 * fields, flowVars and environment names. Arrow keys move, Enter or Tab picks, Escape closes.
 */
export function ExpressionInput(props: ExpressionInputProps) {
  const { value, onChange, scope, label, multiline, placeholder, invalid, describedBy } = props;
  const listId = useId();
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [result, setResult] = useState<CompletionResult | undefined>();
  const [active, setActive] = useState(0);

  const refresh = (text: string, caret: number | null) => {
    setResult(caret === null ? undefined : expressionCompletions(text, caret, scope));
    setActive(0);
  };

  const choose = (index: number) => {
    const item = result?.items[index];
    if (result === undefined || item === undefined) return;
    const next = applyCompletion(value, result, item.value);
    onChange(next.text);
    setResult(undefined);
    requestAnimationFrame(() => {
      field.current?.focus();
      field.current?.setSelectionRange(next.caret, next.caret);
    });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (result === undefined) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + result.items.length) % result.items.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      choose(active);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setResult(undefined);
    }
  };

  const common = {
    ref: field,
    value,
    placeholder,
    'aria-label': label,
    role: 'combobox',
    'aria-autocomplete': 'list' as const,
    'aria-expanded': result !== undefined,
    'aria-controls': listId,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
    'aria-activedescendant': result !== undefined ? `${listId}-${active}` : undefined,
    className: 'nodrag expression',
    spellCheck: false,
    onKeyDown,
    onBlur: () => setTimeout(() => setResult(undefined), 150),
    onChange: (event: { target: { value: string; selectionStart: number | null } }) => {
      onChange(event.target.value);
      refresh(event.target.value, event.target.selectionStart);
    },
  };

  return (
    <div className="expression-field">
      {multiline ? <textarea rows={4} {...common} /> : <input {...common} />}
      {result !== undefined && (
        <ul id={listId} role="listbox" aria-label={`Completions for ${label}`} className="completions">
          {result.items.map((item, index) => (
            <li
              key={item.value}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(index);
              }}
            >
              <code>{item.value}</code>
              <span className="muted small">{item.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
