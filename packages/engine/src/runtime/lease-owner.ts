import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** A worker's identity in leases: `host/pid/random`, so a restarted process never reuses one. */
export function newLeaseOwner(): string {
  return `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
}

/**
 * True when `owner` names a process of this host that no longer exists. Its leases can be taken
 * over at once instead of waiting for them to expire (the common case after `kill -9` and a
 * restart on the same machine).
 */
export function isDeadLocalOwner(owner: string): boolean {
  const [host, pidText] = owner.split('/');
  if (host !== hostname() || pidText === undefined) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
