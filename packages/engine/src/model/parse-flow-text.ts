import yaml from 'js-yaml';
import { SvcError } from '../errors.js';
import { checkJsonShape, describeJsonShapeProblem, MAX_JSON_DEPTH, yamlTextTooDeep } from './json-depth.js';

/** Values a flow file may expand to, aliases counted each time they are used: far past any real flow. */
const MAX_FLOW_FILE_VALUES = 1_000_000;

/**
 * Reads a flow file's text: JSON, or YAML (flows as code). Syntax errors name the line and column.
 * A file nested deeper than 64 levels, a YAML alias that refers to itself, or aliases that expand
 * past a million values is a `VALIDATION_ERROR` naming where.
 * @example parseFlowText(readFileSync('flows/order.yaml', 'utf8'), 'flows/order.yaml')
 */
export function parseFlowText(text: string, fileName = 'flow'): unknown {
  const value = parseText(text, fileName);
  const problem = checkJsonShape(value, { maxDepth: MAX_JSON_DEPTH, maxValues: MAX_FLOW_FILE_VALUES });
  if (problem !== undefined) {
    const { path, message } = describeJsonShapeProblem(problem, '');
    const shown = path === '' ? fileName : `${fileName}: ${path}`;
    throw new SvcError('VALIDATION_ERROR', `${shown}: ${message}`, {
      details: { problems: [{ code: 'TOO_DEEP', message, path }] },
    });
  }
  return value;
}

function parseText(text: string, fileName: string): unknown {
  const trimmed = text.trimStart();
  if (fileName.endsWith('.json') || trimmed.startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new SvcError('INVALID_FLOW_FILE', `${fileName}: not valid JSON: ${(error as Error).message}`);
    }
  }
  // The YAML composer recurses once per level: text nested thousands deep must not reach it.
  const deep = yamlTextTooDeep(text);
  if (deep !== undefined) {
    const message = `nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays (at line ${deep.line})`;
    throw new SvcError('VALIDATION_ERROR', `${fileName}: ${message}`, {
      details: { problems: [{ code: 'TOO_DEEP', message, path: '' }] },
    });
  }
  try {
    // js-yaml with YAML 1.2's core schema (the `yaml` package's default: no timestamps, no merge
    // keys, `yes` is a string). It reads a flow file four to five times as fast as `yaml`, which
    // is most of what `svc run suite` spends on a suite file of a few hundred flows. Aliases are
    // kept as shared references here; `checkJsonShape` (in parseFlowText) counts each use, refuses a
    // cycle, and bounds the nesting, as for the parsed value of any file.
    return yaml.load(text, { schema: yaml.CORE_SCHEMA, filename: fileName });
  } catch (error) {
    if (!(error instanceof yaml.YAMLException)) throw error;
    const mark = error.mark as { line?: number; column?: number } | undefined;
    const where = mark?.line === undefined ? '' : ` at line ${mark.line + 1}, column ${(mark.column ?? 0) + 1}`;
    throw new SvcError('INVALID_FLOW_FILE', `${fileName}: not valid YAML: ${error.reason}${where}`);
  }
}
