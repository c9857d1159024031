// Ends a process and everything it started, at once (SIGKILL): for a test
// stage or a browser that stopped answering. Children are found through
// /proc (Linux), so a browser's helpers go too even when they sit in a
// process group of their own; a child that outlived its parent is no longer
// below it and is not found.
import { readdirSync, readFileSync } from 'node:fs';

/** The pids below `pid` (children, their children, ...), deepest last. */
export function descendants(pid) {
  const children = new Map();
  let names;
  try {
    names = readdirSync('/proc');
  } catch {
    return []; // no /proc (not Linux): the process group kill is what is left
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid ...: comm may hold spaces and parentheses
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(name));
  }
  const out = [];
  for (let queue = [pid]; queue.length;) {
    const next = children.get(queue.shift()) ?? [];
    out.push(...next);
    queue.push(...next);
  }
  return out;
}

/** SIGKILLs `pid`, all its descendants and, with `group`, its process group; never throws. */
export function killTree(pid, { group = false } = {}) {
  if (!pid) return;
  const all = [pid, ...descendants(pid)];
  // stop the parent first, so it starts no new child while the rest go
  for (const p of all) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  if (group) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // no such group
    }
  }
}
