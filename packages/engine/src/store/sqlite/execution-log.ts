import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { MappedFileAddon } from './mapped-file.js';

/*
 * The execution log: where the SQLite store makes an execution's writes durable before they are
 * folded into the tables in batches. One file per open store, beside the database, of a fixed
 * size, used as a ring:
 *
 *   header (64 bytes): "SVCXLOG1", the log's id (16 hex characters), epoch (u32 LE) at 24,
 *                      heartbeat (f64 LE, ms since the epoch) at 32
 *   records from 64:   length (u32 LE), epoch (u32 LE), `length` bytes of UTF-8 text, padding to 4
 *
 * A record counts when its epoch is the header's. It is written payload first and epoch last, so
 * a process killed in the middle of a record leaves it not counting. When everything written has
 * been folded, the log starts over at 64 under the next epoch; records of earlier epochs left
 * further on no longer count. Written through a shared memory mapping, a record reaches the page
 * cache without a system call, and survives the process being killed the next instant.
 */

export const LOG_HEADER_BYTES = 64;
const MAGIC = 'SVCXLOG1';
const ID_OFFSET = 8;
const EPOCH_OFFSET = 24;
const HEARTBEAT_OFFSET = 32;
const RECORD_HEADER_BYTES = 8;

const align4 = (offset: number): number => (offset + 3) & ~3;

/** Where the logs of a database live. */
export function executionLogDirectory(databasePath: string): string {
  return `${databasePath}-execlog`;
}

/** Tells this process from an earlier one that had the same pid (a restarted container). */
export const PROCESS_TOKEN = randomBytes(4).toString('hex');

/** Who owns a log: a process, named by host, pid and token. */
export interface LogOwner {
  host: string;
  pid: number;
  token: string;
}

export const THIS_PROCESS: LogOwner = { host: hostname().replace(/[^A-Za-z0-9-]/g, '-'), pid: process.pid, token: PROCESS_TOKEN };

/** Ids of the logs open in this process: those are never taken over by a store of this process. */
export const openLogIds = new Set<string>();

/** `<id>.p<pid>-<token>.<host>.log`: the process that owns the log is in its name. */
export function logFileName(id: string, owner: LogOwner): string {
  return `${id}.p${owner.pid}-${owner.token}.${owner.host}.log`;
}

export function parseLogFileName(name: string): { id: string; owner: LogOwner } | undefined {
  const match = /^([0-9a-f]{16})\.p(\d+)-([0-9a-f]+)\.([A-Za-z0-9-]*)\.log$/.exec(name);
  return match ? { id: match[1]!, owner: { pid: Number(match[2]), token: match[3]!, host: match[4]! } } : undefined;
}

export class ExecutionLog {
  private epochValue = 1;
  private end = LOG_HEADER_BYTES;
  private closed = false;

  private constructor(
    readonly id: string,
    readonly path: string,
    private readonly fd: number,
    private readonly size: number,
    /** The mapping, when the addon is there; otherwise records go out with write(2). */
    private readonly mapped: Buffer | undefined,
  ) {}

  /** Creates a new, empty log in `directory`, owned by this process. */
  static create(directory: string, options: { sizeBytes: number; addon: MappedFileAddon | null }): ExecutionLog {
    mkdirSync(directory, { recursive: true });
    const id = randomBytes(8).toString('hex');
    const path = join(directory, logFileName(id, THIS_PROCESS));
    const fd = openSync(path, 'wx+');
    try {
      // Sparse: only the pages written take room.
      ftruncateSync(fd, options.sizeBytes);
      const mapped = options.addon ? Buffer.from(options.addon.map(fd, options.sizeBytes)) : undefined;
      const log = new ExecutionLog(id, path, fd, options.sizeBytes, mapped);
      const header = Buffer.alloc(LOG_HEADER_BYTES);
      header.write(MAGIC, 0, 'latin1');
      header.write(id, ID_OFFSET, 'latin1');
      header.writeUInt32LE(log.epochValue, EPOCH_OFFSET);
      header.writeDoubleLE(Date.now(), HEARTBEAT_OFFSET);
      log.writeAt(header, 0);
      openLogIds.add(id);
      return log;
    } catch (error) {
      closeSync(fd);
      unlinkSync(path);
      throw error;
    }
  }

  get epoch(): number {
    return this.epochValue;
  }

  /** Where the next record goes: the end of the last one. */
  get offset(): number {
    return this.end;
  }

  /** The largest record payload an empty log takes, in bytes. */
  get capacity(): number {
    return this.size - LOG_HEADER_BYTES - RECORD_HEADER_BYTES;
  }

  /** Bytes of records since the last start-over. */
  get used(): number {
    return this.end - LOG_HEADER_BYTES;
  }

  get writesThroughMapping(): boolean {
    return this.mapped !== undefined;
  }

  /**
   * Appends one record. Answers false, writing nothing, when it does not fit in the room left:
   * the caller folds what the log holds and starts it over.
   */
  append(text: string): boolean {
    const room = this.size - this.end - RECORD_HEADER_BYTES;
    // A UTF-16 unit is at most three bytes of UTF-8: most records need no exact count.
    if (text.length * 3 > room && Buffer.byteLength(text) > room) return false;
    const start = this.end;
    const mapped = this.mapped;
    if (mapped) {
      const length = mapped.write(text, start + RECORD_HEADER_BYTES, 'utf8');
      mapped.writeUInt32LE(length, start);
      mapped.writeUInt32LE(this.epochValue, start + 4);
      this.end = align4(start + RECORD_HEADER_BYTES + length);
    } else {
      const payload = Buffer.from(text, 'utf8');
      const record = Buffer.allocUnsafe(RECORD_HEADER_BYTES + payload.length);
      record.writeUInt32LE(payload.length, 0);
      record.writeUInt32LE(this.epochValue, 4);
      payload.copy(record, RECORD_HEADER_BYTES);
      this.writeAt(record, start);
      this.end = align4(start + record.length);
    }
    return true;
  }

  /** Starts over at the first record under the next epoch: call only once everything is folded. */
  restart(): void {
    this.epochValue = (this.epochValue + 1) >>> 0 || 1;
    const epoch = Buffer.alloc(4);
    epoch.writeUInt32LE(this.epochValue, 0);
    this.writeAt(epoch, EPOCH_OFFSET);
    this.end = LOG_HEADER_BYTES;
  }

  /** Marks the log as still owned: a log whose heartbeat is old enough may be taken over. */
  beat(now: number): void {
    const time = Buffer.alloc(8);
    time.writeDoubleLE(now, 0);
    this.writeAt(time, HEARTBEAT_OFFSET);
  }

  /** Closes the file and deletes it: call only once everything is folded. */
  remove(): void {
    if (this.closed) return;
    this.closed = true;
    openLogIds.delete(this.id);
    closeSync(this.fd);
    try {
      unlinkSync(this.path);
    } catch (error) {
      // Taken over by another process while this one stood still: its writes are folded anyway.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  private writeAt(bytes: Buffer, offset: number): void {
    if (this.mapped) bytes.copy(this.mapped, offset);
    else writeSync(this.fd, bytes, 0, bytes.length, offset);
  }
}

/** A log as read back from its file: its identity and the records that count from `from`. */
export interface LogContents {
  id: string;
  epoch: number;
  heartbeatAt: number;
  records: LogRecord[];
}

/** A record's text (see execution-log-records.ts), and where the next record starts. */
export interface LogRecord {
  text: string;
  end: number;
}

/** A log file's header alone; undefined when the file is gone or is not a log. */
export function readExecutionLogHeader(path: string): Omit<LogContents, 'records'> | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    return readHeader(readBytes(fd, 0, LOG_HEADER_BYTES));
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a log file's records of `until.epoch` (the header's when not given) that follow `from`,
 * up to `until.offset` (the end of the file when not given), reading only those bytes.
 */
export function readExecutionLogFile(
  path: string,
  from?: { epoch: number; offset: number },
  until?: { epoch: number; offset: number },
): LogContents | undefined {
  const fd = openSync(path, 'r');
  try {
    const header = readHeader(readBytes(fd, 0, LOG_HEADER_BYTES));
    if (header === undefined) return undefined;
    const epoch = until?.epoch ?? header.epoch;
    const start = startOffset(epoch, from);
    const end = until?.offset ?? fstatSync(fd).size;
    const records = end > start ? readRecords(readBytes(fd, start, end - start), start, start, epoch) : [];
    return { ...header, epoch, records };
  } finally {
    closeSync(fd);
  }
}

function readHeader(bytes: Buffer): Omit<LogContents, 'records'> | undefined {
  if (bytes.length < LOG_HEADER_BYTES || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  return {
    id: bytes.toString('latin1', ID_OFFSET, ID_OFFSET + 16),
    epoch: bytes.readUInt32LE(EPOCH_OFFSET),
    heartbeatAt: bytes.readDoubleLE(HEARTBEAT_OFFSET),
  };
}

/** What was folded under this epoch is skipped; under an earlier epoch, nothing of this one was. */
function startOffset(epoch: number, from: { epoch: number; offset: number } | undefined): number {
  return from !== undefined && from.epoch === epoch ? Math.max(LOG_HEADER_BYTES, from.offset) : LOG_HEADER_BYTES;
}

function readBytes(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  const read = readSync(fd, bytes, 0, length, position);
  return read < length ? bytes.subarray(0, read) : bytes;
}

/** The records of `epoch` from file offset `start`, in `bytes` that hold the file from `base`. */
function readRecords(bytes: Buffer, base: number, start: number, epoch: number): LogRecord[] {
  const records: LogRecord[] = [];
  let offset = start;
  while (offset - base + RECORD_HEADER_BYTES <= bytes.length) {
    const at = offset - base;
    const length = bytes.readUInt32LE(at);
    const recordEpoch = bytes.readUInt32LE(at + 4);
    const payloadEnd = at + RECORD_HEADER_BYTES + length;
    if (length === 0 || recordEpoch !== epoch || payloadEnd > bytes.length) break;
    records.push({ text: bytes.toString('utf8', at + RECORD_HEADER_BYTES, payloadEnd), end: align4(base + payloadEnd) });
    offset = align4(base + payloadEnd);
  }
  return records;
}
