/**
 * The flow document's model for clients that run no flows (the web app): the document and node
 * config schemas, frame colours, operators and frame moves, with nothing that needs Node.
 * Published as `@svc/engine/flow-model`.
 */
export {
  flowDocumentSchema,
  flowNodeSchema,
  connectionSchema,
  canvasGroupSchema,
  annotationSchema,
  FRAME_COLORS,
  NODE_NAME_PATTERN,
  MAX_FLOW_NODES,
  type FlowDocument,
  type FlowDocumentInput,
  type FlowNode,
  type Connection,
  type CanvasGroup,
  type Annotation,
} from './flow-schema.js';
export { endpointConfigSchema, HTTP_METHODS, type EndpointConfig } from './configs/endpoint-config.js';
export { switchConfigSchema, type SwitchConfig, type SwitchCase } from './configs/switch-config.js';
export { forConfigSchema } from './configs/for-config.js';
export { repeatConfigSchema } from './configs/repeat-config.js';
export { collectConfigSchema } from './configs/collect-config.js';
export { subflowConfigSchema } from './configs/subflow-config.js';
export { variablesConfigSchema } from './configs/variables-config.js';
export { delayConfigSchema } from './configs/delay-config.js';
export { webhookConfigSchema, VERIFICATION_METHODS, WEBHOOK_MODES } from './configs/webhook-config.js';
export { POLLING_RULE_OPERATORS } from './configs/polling-config.js';
export { COMPARISON_OPERATORS, type ComparisonOperator } from './operators.js';
export { moveFrame } from './move-frame.js';
