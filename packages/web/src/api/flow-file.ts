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

/** Reads a flow file; an answer that is no flow document says what is wrong and where. */
export function parseFlowFile(text: string): { ok: true; flow: FlowDocument } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `the file is not JSON: ${(error as Error).message}` };
  }
  const parsed = flowDocumentSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, message: `not a flow document: ${issue.path.join('.') || '(top)'}: ${issue.message}` };
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
