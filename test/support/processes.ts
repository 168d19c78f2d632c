/** Helpers for tests that run the portal as a real child process. */
import fs from 'node:fs';

export { freePort } from '../../scripts/free-port.mjs';


export async function waitFor(url: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

/** The processes running now, by id, with their parent's id, from /proc (Linux). */
function processTable(): Map<number, number> {
  const table = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name in parentheses may hold spaces and parentheses: the parent's id follows the last ")".
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      table.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** The processes below `pid` (children, theirs and so on), with their command lines. */
export function descendantsOf(pid: number): Array<{ pid: number; command: string }> {
  const table = processTable();
  const found: number[] = [];
  for (let parents = [pid]; parents.length > 0; ) {
    const children = [...table].filter(([, parent]) => parents.includes(parent)).map(([child]) => child);
    found.push(...children);
    parents = children;
  }
  return found.map((p) => ({ pid: p, command: commandOf(p) }));
}

function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Processes whose working directory is `dir` or below it, whoever their parent is now (an orphan's is init). */
export function processesIn(dir: string): Array<{ pid: number; command: string }> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const pid of processTable().keys()) {
    try {
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push({ pid, command: commandOf(pid) });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Whether a process of this id is still there (a zombie not yet reaped counts as gone). */
export function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}
