import type { AnyNode, Identifier, Pattern, Program } from 'acorn';
import { SvcError } from '../errors.js';
import { applyEdits, assertRenamable } from './references.js';

/*
 * What the engine reads in a parsed JavaScript expression (the node names it refers to, and how to
 * rename one), apart from how acorn is loaded: the engine loads it on first use in Node, a browser
 * imports it as an ES module. Callers pass acorn's `parse`.
 */

/** acorn's `parse`, as the caller loaded it. */
export type ParseJavaScript = typeof import('acorn').parse;

export const PARSE_OPTIONS = { ecmaVersion: 2022, sourceType: 'script' } as const;

export type Reference =
  | { kind: 'global'; name: string; start: number; end: number; shorthand: boolean }
  | { kind: 'binding'; name: string; start: number; end: number; quote: '' | "'" | '"' };

export function parseOrThrow(parse: ParseJavaScript, code: string): Program {
  try {
    return parse(code, PARSE_OPTIONS);
  } catch (error) {
    const failure = syntaxFailure(error);
    throw new SvcError('EXPRESSION_SYNTAX', `JavaScript expression does not parse: ${failure.message}`, {
      details: { source: code, position: failure.position },
      cause: error,
    });
  }
}

export function syntaxFailure(error: unknown): { ok: false; message: string; position: number } {
  if (error instanceof SyntaxError) {
    const position = (error as SyntaxError & { pos?: unknown }).pos;
    return { ok: false, message: error.message, position: typeof position === 'number' ? position : 0 };
  }
  throw error;
}

/**
 * Renames node `from` to `to` where the code reads it, parsing with the `parse` given (see
 * `renameNodeInJavaScript`).
 */
export function renameNodeInJavaScriptWith(parse: ParseJavaScript, code: string, from: string, to: string): string {
  assertRenamable(from, to);
  if (!code.includes(from)) return code;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const reference of findReferences(parseOrThrow(parse, code))) {
    if (reference.name !== from) continue;
    let text = to;
    // `{ Create }` is both a key and a read: keep the key, rename the read.
    if (reference.kind === 'global' && reference.shorthand) text = `${from}: ${to}`;
    else if (reference.kind === 'binding' && reference.quote !== '') text = `${reference.quote}${to}${reference.quote}`;
    edits.push({ start: reference.start, end: reference.end, text });
  }
  edits.sort((a, b) => a.start - b.start);
  return applyEdits(code, edits);
}

type FunctionNode = Extract<
  AnyNode,
  { type: 'FunctionExpression' | 'FunctionDeclaration' | 'ArrowFunctionExpression' }
>;

/**
 * Free identifiers and `ResponseBinding.<Name>` reads, with scopes tracked so that a parameter or
 * local variable that happens to share a node's name is not taken for the node.
 */
export function findReferences(program: Program): Reference[] {
  const references: Reference[] = [];
  const scopes: Set<string>[] = [];
  const isBound = (name: string) => scopes.some((scope) => scope.has(name));

  const visitAll = (nodes: readonly (AnyNode | null | undefined)[]) => {
    for (const node of nodes) if (node) visit(node);
  };

  const withScope = (names: Set<string>, body: () => void) => {
    scopes.push(names);
    try {
      body();
    } finally {
      scopes.pop();
    }
  };

  const visitFunction = (fn: FunctionNode) => {
    const names = new Set<string>();
    if (fn.type === 'FunctionExpression' && fn.id) names.add(fn.id.name);
    for (const param of fn.params) collectPatternNames(param, names);
    collectDeclarations(fn.body, names);
    withScope(names, () => {
      for (const param of fn.params) visitPattern(param);
      visit(fn.body);
    });
  };

  /** Patterns bind names; only their computed keys and default values read anything. */
  const visitPattern = (pattern: Pattern) => {
    switch (pattern.type) {
      case 'Identifier':
        return;
      case 'ObjectPattern':
        for (const property of pattern.properties) {
          if (property.type === 'RestElement') visitPattern(property.argument);
          else {
            if (property.computed) visit(property.key);
            visitPattern(property.value);
          }
        }
        return;
      case 'ArrayPattern':
        for (const element of pattern.elements) if (element) visitPattern(element);
        return;
      case 'RestElement':
        visitPattern(pattern.argument);
        return;
      case 'AssignmentPattern':
        visitPattern(pattern.left);
        visit(pattern.right);
        return;
      case 'MemberExpression':
        visit(pattern);
        return;
    }
  };

  const visit = (node: AnyNode): void => {
    switch (node.type) {
      case 'Program': {
        const names = new Set<string>();
        collectDeclarations(node, names);
        withScope(names, () => visitAll(node.body));
        return;
      }
      case 'Identifier':
        if (!isBound(node.name))
          references.push({ kind: 'global', name: node.name, start: node.start, end: node.end, shorthand: false });
        return;
      case 'MemberExpression': {
        const { object, property } = node;
        if (object.type === 'Identifier' && object.name === 'ResponseBinding' && !isBound('ResponseBinding')) {
          if (!node.computed && property.type === 'Identifier') {
            references.push({
              kind: 'binding',
              name: property.name,
              start: property.start,
              end: property.end,
              quote: '',
            });
          } else if (node.computed && property.type === 'Literal' && typeof property.value === 'string') {
            const quote = property.raw?.startsWith('"') ? '"' : "'";
            // Only plain names can be rewritten by swapping the text between the quotes.
            if (property.raw === `${quote}${property.value}${quote}`) {
              references.push({
                kind: 'binding',
                name: property.value,
                start: property.start,
                end: property.end,
                quote,
              });
            }
          }
        }
        visit(object);
        if (node.computed) visit(property);
        return;
      }
      case 'Property':
        if (node.computed) visit(node.key);
        if (node.shorthand && node.value.type === 'Identifier') {
          const { name, start, end } = node.value;
          if (!isBound(name)) references.push({ kind: 'global', name, start, end, shorthand: true });
        } else {
          visit(node.value);
        }
        return;
      case 'MethodDefinition':
      case 'PropertyDefinition':
        if (node.computed) visit(node.key);
        if (node.value) visit(node.value);
        return;
      case 'FunctionExpression':
      case 'FunctionDeclaration':
      case 'ArrowFunctionExpression':
        visitFunction(node);
        return;
      case 'ClassExpression':
      case 'ClassDeclaration': {
        const names = new Set<string>();
        if (node.id) names.add(node.id.name);
        withScope(names, () => {
          if (node.superClass) visit(node.superClass);
          visit(node.body);
        });
        return;
      }
      case 'StaticBlock': {
        const names = new Set<string>();
        collectDeclarations(node, names);
        withScope(names, () => visitAll(node.body));
        return;
      }
      case 'CatchClause': {
        const names = new Set<string>();
        if (node.param) collectPatternNames(node.param, names);
        withScope(names, () => {
          if (node.param) visitPattern(node.param);
          visit(node.body);
        });
        return;
      }
      case 'VariableDeclarator':
        visitPattern(node.id);
        if (node.init) visit(node.init);
        return;
      case 'AssignmentExpression':
        visitPattern(node.left);
        visit(node.right);
        return;
      case 'ForInStatement':
      case 'ForOfStatement':
        if (node.left.type === 'VariableDeclaration') visit(node.left);
        else visitPattern(node.left);
        visit(node.right);
        visit(node.body);
        return;
      case 'LabeledStatement':
        visit(node.body);
        return;
      case 'BreakStatement':
      case 'ContinueStatement':
      case 'MetaProperty':
      case 'PrivateIdentifier':
        return;
      default:
        visitChildren(node, visit);
    }
  };

  visit(program);
  return references;
}

/** Generic descent for node types whose children are all plain reads. */
function visitChildren(node: AnyNode, visit: (node: AnyNode) => void): void {
  for (const key of Object.keys(node)) {
    if (key === 'type' || key === 'start' || key === 'end' || key === 'loc' || key === 'range') continue;
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) visit(item);
    } else if (isNode(value)) {
      visit(value);
    }
  }
}

function isNode(value: unknown): value is AnyNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function collectPatternNames(pattern: Pattern, names: Set<string>): void {
  switch (pattern.type) {
    case 'Identifier':
      names.add(pattern.name);
      return;
    case 'ObjectPattern':
      for (const property of pattern.properties) {
        collectPatternNames(property.type === 'RestElement' ? property.argument : property.value, names);
      }
      return;
    case 'ArrayPattern':
      for (const element of pattern.elements) if (element) collectPatternNames(element, names);
      return;
    case 'RestElement':
      collectPatternNames(pattern.argument, names);
      return;
    case 'AssignmentPattern':
      collectPatternNames(pattern.left, names);
      return;
    case 'MemberExpression':
      return;
  }
}

/**
 * Names declared in a function body (or the program), without entering nested functions.
 * Block-scoped `let`/`const` are treated as function-wide: a shadowing name is then never
 * mistaken for a node, at the cost of missing a node read beside a same-named block variable.
 */
function collectDeclarations(root: AnyNode, names: Set<string>): void {
  const walk = (node: AnyNode): void => {
    switch (node.type) {
      case 'VariableDeclaration':
        for (const declarator of node.declarations) {
          collectPatternNames(declarator.id, names);
          if (declarator.init) walk(declarator.init);
        }
        return;
      case 'FunctionDeclaration':
      case 'ClassDeclaration':
        if (node.id) names.add((node.id as Identifier).name);
        return;
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
      case 'ClassExpression':
        return;
      default:
        visitChildren(node, walk);
    }
  };
  if (root.type === 'Program' || root.type === 'BlockStatement' || root.type === 'StaticBlock') {
    for (const statement of root.body) walk(statement);
  }
}
