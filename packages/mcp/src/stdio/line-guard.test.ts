import { describe, expect, it } from 'vitest';
import { LineGuard, type OversizedLine } from './line-guard.js';

/** Feeds `chunks` through a guard and collects the lines it lets through and the ones it dropped. */
async function feed(maxBytes: number, chunks: string[]): Promise<{ lines: string[]; dropped: OversizedLine[] }> {
  const dropped: OversizedLine[] = [];
  const guard = new LineGuard({ maxBytes, onOversized: (line) => dropped.push(line) });
  const out: Buffer[] = [];
  guard.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve) => guard.on('end', resolve));
  for (const chunk of chunks) guard.write(Buffer.from(chunk));
  guard.end();
  await ended;
  return { lines: Buffer.concat(out).toString('utf8').split('\n').filter(Boolean), dropped };
}

describe('LineGuard', () => {
  it('passes whole lines through, however the input is cut into chunks', async () => {
    const { lines, dropped } = await feed(100, ['{"a":', '1}\n{"b"', ':2}\n\n{"c":3}\n']);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(dropped).toEqual([]);
  });

  it('drops a line over the limit, reports its size and id from its end, and goes on with the next line', async () => {
    const big = `{"method":"tools/call","params":{"arguments":{"x":"${'y'.repeat(500)}"}},"jsonrpc":"2.0","id":7}`;
    const { lines, dropped } = await feed(100, [
      big.slice(0, 50),
      big.slice(50, 300),
      `${big.slice(300)}\n{"ok":true}\n`,
    ]);
    expect(dropped).toEqual([{ bytes: big.length, id: 7 }]);
    expect(lines).toEqual(['{"ok":true}']);
  });

  it('reads the id from the start of a line when it comes first', async () => {
    const big = `{"jsonrpc":"2.0","id":"req-1","method":"tools/call","params":{"x":"${'y'.repeat(2_000)}"}}\n`;
    expect((await feed(100, [big])).dropped).toEqual([{ bytes: big.length - 1, id: 'req-1' }]);
  });

  it('does not take a nested id for the message id', async () => {
    const big = `{"method":"notifications/x","jsonrpc":"2.0","params":{"node":{"id":"n1"}}}${' '.repeat(200)}\n`;
    expect((await feed(100, [big])).dropped).toEqual([{ bytes: big.length - 1, id: undefined }]);
  });

  it('finds the id when the limit is crossed by the last few bytes of the line', async () => {
    const line = `{"method":"m","params":{},"jsonrpc":"2.0","id":12}`;
    expect((await feed(line.length - 3, [line.slice(0, -3), `${line.slice(-3)}\n`])).dropped).toEqual([
      { bytes: line.length, id: 12 },
    ]);
  });
});
