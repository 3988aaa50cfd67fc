/**
 * The expression language: `{{…}}` templates (parsed once, evaluated by walking data) and the
 * JavaScript of Switch expression mode (checked with acorn, run in a QuickJS sandbox).
 */
export { parseTemplate } from './parse-template.js';
export { evaluateTemplate } from './evaluate-template.js';
export {
  createTemplateResolver,
  hasTemplate,
  type TemplateResolver,
  type TemplateResolverOptions,
} from './resolve-value.js';
export { templateNodeReferences, renameNodeInTemplate } from './references.js';
export { formatPathExpression } from './format-path.js';
export {
  checkJavaScript,
  javascriptNodeReferences,
  renameNodeInJavaScript,
  type JavaScriptCheck,
} from './javascript.js';
export {
  createQuickJsSandbox,
  createInThreadQuickJsSandbox,
  type QuickJsSandbox,
  type QuickJsSandboxOptions,
} from './quickjs-sandbox.js';
export {
  RESERVED_ROOTS,
  type ExpressionScope,
  type PathExpression,
  type PathSegment,
  type Template,
  type TemplatePart,
} from './types.js';
