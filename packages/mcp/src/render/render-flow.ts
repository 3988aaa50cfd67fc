import type { FlowSummaryView, StoredFlowView } from '../tools/flow-views.js';
import { oneLine, table } from '@svc/engine/text-table';

/**
 * A flow for a person, complete enough to edit from: every node with its config, every wire by
 * node names and handle, the frames. Positions are left out; the structured result has them.
 */
export function renderFlow(flow: StoredFlowView): string {
  const names = new Map(flow.nodes.map((node) => [node.id, node.name]));
  const lines = [`${flow.name} (id ${flow.id}, version ${flow.version}, updated ${flow.updatedAt})`];
  if (flow.description) lines.push(flow.description);
  for (const trigger of flow.webhookTriggers ?? []) lines.push(`starts on POST ${trigger.url} (${trigger.nodeName})`);
  if (Object.keys(flow.variables).length > 0) lines.push(`variables: ${oneLine(flow.variables, 400)}`);
  if (Object.keys(flow.inputs).length > 0) lines.push(`inputs: ${oneLine(flow.inputs, 400)}`);
  if (Object.keys(flow.outputs).length > 0) lines.push(`outputs: ${oneLine(flow.outputs, 400)}`);
  lines.push('', `nodes (${flow.nodes.length}):`);
  for (const node of flow.nodes) {
    lines.push(`- ${node.name} [${node.type}] id ${node.id}: ${oneLine(node.config, 600)}`);
  }
  lines.push('', `wires (${flow.connections.length}):`);
  for (const wire of flow.connections) {
    const handle = wire.sourceHandle === 'out' ? '' : ` (${wire.sourceHandle}${wire.label ? ` "${wire.label}"` : ''})`;
    lines.push(`- ${names.get(wire.source) ?? wire.source}${handle} → ${names.get(wire.target) ?? wire.target}`);
  }
  for (const group of flow.flowData.canvasGroups) {
    lines.push(
      `frame "${group.title || group.id}" [${group.color}]: ${group.nodeIds.map((id) => names.get(id) ?? id).join(', ')}`,
    );
  }
  return lines.join('\n');
}

export function renderFlowList(flows: FlowSummaryView[], hasMore: boolean): string {
  if (flows.length === 0) return 'No flows found.';
  const rows = [
    ['name', 'id', 'version', 'nodes', 'updated'],
    ...flows.map((flow) => [flow.name, flow.id, String(flow.version), String(flow.nodeCount), flow.updatedAt]),
  ];
  const more = hasMore ? `\nMore flows match than shown; narrow the list with search.` : '';
  return `${flows.length} flow${flows.length === 1 ? '' : 's'}:\n${table(rows)}${more}`;
}
