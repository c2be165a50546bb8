// Whether a process of this host is alive: what lease takeover and the test cluster's clean-up ask of a
// process id they find recorded.

import { readFileSync } from 'node:fs';

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process nobody has reaped yet (a zombie, common under a container's init) still answers
  // signal 0; on Linux its state says so. Elsewhere it counts as alive and its lease simply runs out.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return true;
  }
}
