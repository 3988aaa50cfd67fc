import { and, eq, isNull, type Column, type SQL } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import { SvcError } from '../errors.js';
import type { FlowDocument } from '../model/flow-schema.js';
import { afterCursor, foldedSearch, type CursorPosition } from './paging.js';
import type { FlowSummary, ListFlowsQuery, StoredFlow } from './types.js';
import { randomId } from './random-id.js';

/*
 * Flows as both stores keep them: a `flows` row per flow, its current version's whole
 * `StoredFlow` as JSON, and a `flow_versions` row per saved version. Both schemas declare these
 * columns alike, so one conversion serves both.
 */

/** `flw_` and 20 base32 characters: 100 random bits, lowercase so ids survive case-folding URLs. */
function newFlowId(): string {
  return randomId('flw_');
}

export function flowNotFound(id: string): SvcError {
  return new SvcError('FLOW_NOT_FOUND', `flow "${id}" not found`);
}

/** A create whose id a live flow of the tenant holds. */
export function flowExists(id: string, cause: unknown): SvcError {
  return new SvcError('CONFLICT', `flow "${id}" already exists`, { cause });
}

/** The document as stored: the store owns id, version and the timestamps, whatever was sent. */
function storedFlow(
  document: FlowDocument,
  id: string,
  version: number,
  createdAt: number,
  updatedAt: number,
): StoredFlow {
  return {
    ...document,
    id,
    version,
    createdAt: new Date(createdAt).toISOString(),
    updatedAt: new Date(updatedAt).toISOString(),
  };
}

/** A stored flow read back from its JSON text. */
export function parseStoredFlow(json: string): StoredFlow {
  return JSON.parse(json) as StoredFlow;
}

/** The columns of a `flows` row that each save writes: the current version and what lists show. */
export interface FlowHead {
  name: string;
  description: string;
  folderId: string | null;
  version: number;
  /** The whole `StoredFlow` of this version, as JSON. */
  document: string;
  nodeCount: number;
  updatedAt: number;
}

/** A whole `flows` row. */
export type FlowRow = FlowHead & { tenantId: string; id: string; createdAt: number; deletedAt: number | null };

/** A `flow_versions` row. */
export interface FlowVersionRow {
  tenantId: string;
  flowId: string;
  version: number;
  document: string;
  createdAt: number;
}

function flowHead(document: FlowDocument, json: string, version: number, updatedAt: number): FlowHead {
  return {
    name: document.name,
    description: document.description ?? '',
    folderId: document.folderId ?? null,
    version,
    document: json,
    nodeCount: document.nodes.length,
    updatedAt,
  };
}

/**
 * The row of a new flow, under the document's id or a new one when it has none: version 1, or the
 * version after `lastVersion` when the id is a deleted flow's. A deleted flow's versions stay, for
 * the executions that ran them, so the new flow numbers its versions after them; it is created now.
 */
export function newFlowRow(tenantId: string, document: FlowDocument, now: number, lastVersion = 0): FlowRow {
  const id = document.id ? document.id : newFlowId();
  const version = lastVersion + 1;
  const json = JSON.stringify(storedFlow(document, id, version, now, now));
  return { tenantId, id, ...flowHead(document, json, version, now), createdAt: now, deletedAt: null };
}

/**
 * The head of flow `id`'s next version over `current`, saved now by `clock`. An
 * `expectedVersion` other than the current one throws `SvcError('CONFLICT')`.
 */
export function nextFlowHead(
  id: string,
  current: { version: number; createdAt: number },
  document: FlowDocument,
  expectedVersion: number | undefined,
  clock: Clock,
): FlowHead {
  if (expectedVersion !== undefined && expectedVersion !== current.version) {
    throw new SvcError(
      'CONFLICT',
      `flow "${id}" is at version ${current.version}, not ${expectedVersion}: reload it and apply the change again`,
      { details: { currentVersion: current.version, expectedVersion } },
    );
  }
  const now = clock.now();
  const version = current.version + 1;
  return flowHead(document, JSON.stringify(storedFlow(document, id, version, current.createdAt, now)), version, now);
}

/** The `flow_versions` row that keeps the version a save wrote to flow `id`. */
export function flowVersionRow(tenantId: string, id: string, head: FlowHead): FlowVersionRow {
  return { tenantId, flowId: id, version: head.version, document: head.document, createdAt: head.updatedAt };
}

/** Either store's `flows` table: a column for each field of a row. */
export type FlowColumns = Record<keyof FlowRow, Column>;

/** The WHERE clause of `list`: the tenant's live flows, in the folder, matching the search, after the cursor. */
export function flowListWhere(table: FlowColumns, tenantId: string, query: ListFlowsQuery): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(table.tenantId, tenantId), isNull(table.deletedAt)];
  if (query.folderId !== undefined) conditions.push(eq(table.folderId, query.folderId));
  conditions.push(foldedSearch(query.search, [table.name, table.description]));
  conditions.push(
    afterCursor(query.cursor, 'desc', (after) => [
      [table.updatedAt, after.at],
      [table.id, after.id],
    ]),
  );
  return and(...conditions);
}

/** A listed flow as its row gives it: the summary with times in milliseconds. */
export type FlowSummaryRow = Omit<FlowSummary, 'updatedAt' | 'createdAt'> & { updatedAt: number; createdAt: number };

/** The columns `list` selects, under the names of `FlowSummaryRow`. */
export function flowSummaryColumns<Table extends FlowColumns>(
  table: Table,
): Pick<Table, 'id' | 'name' | 'description' | 'folderId' | 'version' | 'nodeCount' | 'updatedAt' | 'createdAt'> {
  return {
    id: table.id,
    name: table.name,
    description: table.description,
    folderId: table.folderId,
    version: table.version,
    nodeCount: table.nodeCount,
    updatedAt: table.updatedAt,
    createdAt: table.createdAt,
  };
}

export function toFlowSummary(row: FlowSummaryRow): FlowSummary {
  return {
    ...row,
    updatedAt: new Date(row.updatedAt).toISOString(),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** Where the next page of `list` starts after `row`. */
export function flowCursor(row: FlowSummaryRow): CursorPosition {
  return { at: row.updatedAt, id: row.id };
}
