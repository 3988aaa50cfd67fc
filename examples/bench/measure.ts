/** What one measurement found: runs per second, and the process's CPU time per run. */
export interface Measurement {
  rate: number;
  /** User plus system CPU time of the whole process (event loop and every thread), per run. */
  cpuMicrosPerRun: number;
}

/** Runs `task` `total` times, `concurrency` at a time. */
export async function measure(total: number, concurrency: number, task: () => Promise<void>): Promise<Measurement> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        await task();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { rate: total / seconds, cpuMicrosPerRun: (used.user + used.system) / total };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
