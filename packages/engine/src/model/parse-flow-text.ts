import { parse as parseYaml, YAMLParseError } from 'yaml';
import { SvcError } from '../errors.js';

/**
 * Reads a flow file's text: JSON, or YAML (flows as code). Syntax errors name the line and column.
 * @example parseFlowText(readFileSync('flows/order.yaml', 'utf8'), 'flows/order.yaml')
 */
export function parseFlowText(text: string, fileName = 'flow'): unknown {
  const trimmed = text.trimStart();
  if (fileName.endsWith('.json') || trimmed.startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new SvcError('INVALID_FLOW_FILE', `${fileName}: not valid JSON: ${(error as Error).message}`);
    }
  }
  try {
    return parseYaml(text, { prettyErrors: true });
  } catch (error) {
    const detail = error instanceof YAMLParseError ? error.message.split('\n')[0] : String(error);
    throw new SvcError('INVALID_FLOW_FILE', `${fileName}: not valid YAML: ${detail}`);
  }
}
