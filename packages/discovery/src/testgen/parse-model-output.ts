import { SvcError } from '@svc/engine';
import { isObject } from '../catalog/json-pointer.js';
import type { RejectedTestCase } from './generator.js';
import { generatedTestCaseSchema, type GeneratedTestCase } from './test-case.js';

const EXCERPT_CHARS = 300;

function excerpt(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The places a model puts its JSON, most deliberate first: fenced blocks, the whole answer, the outermost brackets. */
export function jsonCandidates(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/```[ \t]*(?:json|JSON|jsonc)?[ \t]*\r?\n?([\s\S]*?)```/g))
    found.push(match[1]!.trim());
  found.push(text.trim());
  const firstBracket = text.indexOf('[');
  const lastBracket = text.lastIndexOf(']');
  if (firstBracket !== -1 && lastBracket > firstBracket) found.push(text.slice(firstBracket, lastBracket + 1));
  const firstBrace = text.indexOf('{');
  const lastBrace = text.lastIndexOf('}');
  if (firstBrace !== -1 && lastBrace > firstBrace) found.push(text.slice(firstBrace, lastBrace + 1));
  return found;
}

/** The array of cases in a parsed answer: the array itself, or under `testCases`/`cases`/`tests`, or one case alone. */
function caseList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return undefined;
  for (const key of ['testCases', 'test_cases', 'cases', 'tests']) {
    const list = value[key];
    if (Array.isArray(list)) return list;
  }
  return 'name' in value && 'expect' in value ? [value] : undefined;
}

/**
 * The JSON array of test cases in a model's answer, from a ```json fence or the bare text;
 * `undefined` when there is none.
 */
export function extractJsonCases(text: string): unknown[] | undefined {
  for (const candidate of jsonCandidates(text)) {
    const parsed = tryParse(candidate);
    if (!parsed.ok) continue;
    const list = caseList(parsed.value);
    if (list !== undefined) return list;
  }
  return undefined;
}

function hasTemplate(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('{{');
  if (Array.isArray(value)) return value.some(hasTemplate);
  if (isObject(value))
    return Object.entries(value).some(([key, element]) => key.includes('{{') || hasTemplate(element));
  return false;
}

/** Models often repeat the status as an assertion; `expect.status` already says it, so those go. */
function withoutStatusAssertions(element: unknown): unknown {
  if (!isObject(element) || !isObject(element.expect) || !Array.isArray(element.expect.assertions)) return element;
  const assertions = element.expect.assertions.filter(
    (assertion) => !(isObject(assertion) && assertion.target === 'statusCode'),
  );
  return { ...element, expect: { ...element.expect, assertions } };
}

export interface ParsedModelCases {
  cases: GeneratedTestCase[];
  rejected: RejectedTestCase[];
}

/**
 * Reads a model's answer as test cases: each element is checked against the test case schema,
 * and the ones that fail are reported with their reasons rather than sent.
 * @throws SvcError `TESTGEN_MODEL_OUTPUT_INVALID` when the answer holds no JSON array, or no usable case.
 * @example parseModelTestCases('```json\n[{"name":"ok","category":"positive","expect":{"status":200}}]\n```').cases.length // 1
 */
export function parseModelTestCases(text: string, source = 'the model'): ParsedModelCases {
  const list = extractJsonCases(text);
  if (list === undefined) {
    throw new SvcError('TESTGEN_MODEL_OUTPUT_INVALID', `${source} did not answer with a JSON array of test cases`, {
      details: { excerpt: excerpt(text) },
    });
  }
  const cases: GeneratedTestCase[] = [];
  const rejected: RejectedTestCase[] = [];
  list.forEach((element, index) => {
    const parsed = generatedTestCaseSchema.safeParse(withoutStatusAssertions(element));
    if (!parsed.success) {
      const reason = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || '(case)'}: ${issue.message}`)
        .join('; ');
      rejected.push({ index, reason, excerpt: excerpt(element) });
      return;
    }
    if (hasTemplate(parsed.data.request) || hasTemplate(parsed.data.expect.assertions)) {
      rejected.push({
        index,
        reason: 'holds "{{", which a flow would read as an expression',
        excerpt: excerpt(element),
      });
      return;
    }
    cases.push(parsed.data);
  });
  if (cases.length === 0) {
    throw new SvcError(
      'TESTGEN_MODEL_OUTPUT_INVALID',
      list.length === 0
        ? `${source} answered an empty list of test cases`
        : `none of the ${list.length} test cases ${source} answered is usable: ${rejected[0]?.reason ?? ''}`,
      { details: { rejected } },
    );
  }
  return { cases, rejected };
}
