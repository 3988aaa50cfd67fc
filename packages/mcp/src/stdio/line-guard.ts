import { Transform, type TransformCallback } from 'node:stream';

export interface OversizedLine {
  bytes: number;
  /** The JSON-RPC id, when the start or the end of the line shows it; a notification has none. */
  id: string | number | undefined;
}

export interface LineGuardOptions {
  maxBytes: number;
  onOversized(line: OversizedLine): void;
}

const KEEP = 512;
// The id is read from the ends of a line without parsing it: first members (`{"jsonrpc":"2.0","id":7,…`)
// or last member (`…,"id":7}`). A nested object closing the line would end in two braces, so one
// brace after the id means it is the message's own.
const HEAD_ID = /^\s*\{\s*(?:"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,\s*)*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;
const TAIL_ID = /,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

function readId(head: string, tail: string): string | number | undefined {
  const match = HEAD_ID.exec(head) ?? TAIL_ID.exec(tail);
  if (!match) return undefined;
  try {
    return JSON.parse(match[1]!) as string | number;
  } catch {
    return undefined;
  }
}

/**
 * Passes newline-delimited messages through whole, and drops any line longer than `maxBytes`
 * without holding it in memory, reporting it so the request can be answered with an error.
 * The SDK's stdio transport closes itself when a message outgrows its buffer, which would end the
 * server; behind this guard no line it sees can.
 */
export class LineGuard extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;
  private head = '';
  private tail: Buffer = Buffer.alloc(0);

  constructor(private readonly options: LineGuardOptions) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      this.append(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) break;
      this.endLine();
      start = newline + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    // A last line without its newline is an incomplete message; the transport would never read it either.
    this.reset();
    done();
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    if (!this.discarding && this.pendingBytes + piece.length <= this.options.maxBytes) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      return;
    }
    const seen = this.discarding ? [this.tail, piece] : [...this.pending, piece];
    const line = Buffer.concat(seen);
    if (!this.discarding) {
      this.head = line.subarray(0, KEEP).toString('utf8');
      this.discarding = true;
      this.pending = [];
    }
    this.pendingBytes += piece.length;
    // A copy, so the tail does not keep the whole line's buffer alive.
    this.tail = Buffer.from(line.subarray(Math.max(0, line.length - KEEP)));
  }

  private endLine(): void {
    if (this.discarding) {
      this.options.onOversized({ bytes: this.pendingBytes, id: readId(this.head, this.tail.toString('utf8')) });
    } else if (this.pendingBytes > 0) {
      this.push(Buffer.concat([...this.pending, Buffer.from('\n')]));
    }
    this.reset();
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.discarding = false;
    this.head = '';
    this.tail = Buffer.alloc(0);
  }
}
