/**
 * The expression language of `{{…}}` templates. Templates are parsed once into this AST;
 * evaluating one walks data, it never runs code.
 */
export type PathSegment = { kind: 'key'; key: string } | { kind: 'index'; index: number };

export interface PathExpression {
  kind: 'path';
  /** First identifier: a node name, `ResponseBinding`, `flowVars`, `env`, `execution`, a loop alias. */
  root: string;
  segments: PathSegment[];
  /** `{{ X.body.name? }}`: a missing value yields undefined instead of an error. */
  optional: boolean;
  /** `{{ X.body.name ?? 'anon' }}`: a missing (undefined or null) value yields this literal. */
  fallback?: { value: unknown };
  /** Source text between the braces, trimmed. */
  source: string;
}

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'expression'; expression: PathExpression };

export interface Template {
  source: string;
  parts: TemplatePart[];
  /** True when the whole string is exactly one `{{…}}`: evaluation yields the typed value. */
  single: boolean;
}

/** Roots that are not node names. */
export const RESERVED_ROOTS: ReadonlySet<string> = new Set([
  'ResponseBinding',
  'flowVars',
  'env',
  'execution',
  'self',
  'forNode',
  'repeatNode',
]);

/**
 * What a template can read. `lookup(root)` answers the value under a root identifier
 * (`flowVars`, `env`, `execution`, a node name, …), or `undefined` when the root is unknown.
 * `ResponseBinding.<Node>` is answered by `responseBinding(name)`.
 */
export interface ExpressionScope {
  lookup(root: string): unknown;
  responseBinding(nodeName: string): unknown;
}
