/** What the canvas knows about each node type: its palette entry, a starting config, its handles. */
export interface NodeKind {
  type: string;
  label: string;
  description: string;
  /** The start of a new node's name: `Request`, then `Request2`… */
  namePrefix: string;
  defaultConfig(): Record<string, unknown>;
  /** The output handles, in order, for a config (a Switch has one per case). */
  handles(config: Record<string, unknown>): string[];
}

const fixed = (handles: string[]) => () => handles;

export const NODE_KINDS: readonly NodeKind[] = [
  {
    type: 'endpoint',
    label: 'Endpoint',
    description: 'HTTP request with assertions, retry and polling',
    namePrefix: 'Request',
    defaultConfig: () => ({ method: 'GET', url: '{{env.baseUrl}}/' }),
    handles: fixed(['out', 'error']),
  },
  {
    type: 'switch',
    label: 'Switch',
    description: 'Route by the first matching case',
    namePrefix: 'Route',
    defaultConfig: () => ({
      mode: 'cases',
      cases: [{ label: 'ok', source: '', operator: '==', value: '' }],
      default: true,
    }),
    handles: (config) => [
      ...(Array.isArray(config.cases) ? config.cases : []).map((_, index) => `case-${index}`),
      ...(config.default === false ? [] : ['default']),
    ],
  },
  {
    type: 'for',
    label: 'For each',
    description: 'Run the L branch per item, then D',
    namePrefix: 'ForItems',
    defaultConfig: () => ({ items: '{{}}', concurrency: 1 }),
    handles: fixed(['L', 'D']),
  },
  {
    type: 'repeat',
    label: 'Repeat',
    description: 'Run the L branch a number of times, then D',
    namePrefix: 'Repeat',
    defaultConfig: () => ({ count: 3 }),
    handles: fixed(['L', 'D']),
  },
  {
    type: 'collect',
    label: 'Collect',
    description: 'Gather a value per loop iteration',
    namePrefix: 'Collect',
    defaultConfig: () => ({ mode: 'Append', source: '' }),
    handles: fixed(['out']),
  },
  {
    type: 'subflow',
    label: 'Subflow',
    description: 'Run another flow with inputs',
    namePrefix: 'Subflow',
    defaultConfig: () => ({ flowId: '', inputs: {}, onFailure: 'halt' }),
    handles: fixed(['out', 'error']),
  },
  {
    type: 'component-webhook',
    label: 'Webhook',
    description: 'Trigger the flow, or wait for a callback',
    namePrefix: 'Webhook',
    defaultConfig: () => ({ mode: 'wait', path: 'auto', timeoutMinutes: 15, verification: { method: 'None' } }),
    handles: fixed(['out']),
  },
  {
    type: 'variables',
    label: 'Variables',
    description: 'Set flowVars',
    namePrefix: 'SetVars',
    defaultConfig: () => ({ set: {} }),
    handles: fixed(['out']),
  },
  {
    type: 'delay',
    label: 'Delay',
    description: 'Wait for a duration',
    namePrefix: 'Wait',
    defaultConfig: () => ({ duration: '1s' }),
    handles: fixed(['out']),
  },
];

export const nodeKindOf = (type: string): NodeKind | undefined => NODE_KINDS.find((kind) => kind.type === type);

/** A handle's label on the canvas: a Switch case shows its own label. */
export function handleLabel(handle: string, config: Record<string, unknown>): string {
  const match = /^case-(\d+)$/.exec(handle);
  if (match === null) return handle;
  const entry = (Array.isArray(config.cases) ? config.cases : [])[Number(match[1])] as { label?: unknown } | undefined;
  return typeof entry?.label === 'string' && entry.label !== '' ? entry.label : handle;
}

/** A name not yet used: `Request`, `Request2`, `Request3`… */
export function freshName(prefix: string, taken: ReadonlySet<string>): string {
  if (!taken.has(prefix)) return prefix;
  for (let n = 2; ; n += 1) if (!taken.has(`${prefix}${n}`)) return `${prefix}${n}`;
}
