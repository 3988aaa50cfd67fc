import { InvalidArgumentError } from 'commander';

/** Collects repeated `--env KEY=VALUE` options into an object; values stay strings. */
export function collectKeyValue(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const index = value.indexOf('=');
  if (index <= 0) throw new InvalidArgumentError(`expected KEY=VALUE, got "${value}"`);
  return { ...previous, [value.slice(0, index)]: value.slice(index + 1) };
}
