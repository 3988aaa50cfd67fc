import { flowDocumentSchema, type FlowDocument } from '@svc/engine/flow-model';

/**
 * A flow as a file: the document without what the server keeps for itself (id, version, update
 * time, trigger URLs), so importing it anywhere makes a new flow. Frames and notes are part of
 * `flowData` and travel with it.
 */
export function toFlowFile(flow: FlowDocument): string {
  const { id: _id, version: _version, updatedAt: _updatedAt, ...document } = flowDocumentSchema.parse(flow);
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The largest flow file the page reads, as `svc run suite` does. */
export const MAX_FLOW_FILE_CHARS = 4 * 1024 * 1024;

/**
 * Reads a flow file, JSON or YAML (flows as code), with the engine's own reader: loaded on first
 * use, so the YAML parser is not part of the first page load. An answer that is no flow document
 * says what is wrong and where (the line and column of a syntax error, the path of a bad field).
 */
export async function parseFlowFile(
  text: string,
  fileName = 'flow.json',
): Promise<{ ok: true; flow: FlowDocument } | { ok: false; message: string }> {
  if (text.length > MAX_FLOW_FILE_CHARS) {
    return { ok: false, message: `${fileName}: larger than ${MAX_FLOW_FILE_CHARS} characters` };
  }
  const { parseFlowText } = await import('@svc/engine/flow-files');
  let value: unknown;
  try {
    value = parseFlowText(text, fileName);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const parsed = flowDocumentSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      ok: false,
      message: `${fileName}: not a flow document: ${issue.path.join('.') || '(top)'}: ${issue.message}`,
    };
  }
  const { id: _id, version: _version, updatedAt: _updatedAt, ...flow } = parsed.data;
  return { ok: true, flow: flow as FlowDocument };
}

export function download(fileName: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
