/** The processes a test started, found and killed as a CI runner kills a job it stopped (kill -9). */
import { execFileSync } from "node:child_process";

/** The processes that descend from `root` (the pulumi process of one test), with their command lines. */
export function descendantsOf(root: number): Array<{ pid: number; args: string }> {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
  const under = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) if (under.has(r.ppid) && !under.has(r.pid)) (under.add(r.pid), (grew = true));
  }
  return rows.filter((r) => r.pid !== root && under.has(r.pid));
}

/** Kills each of `processes` at once (SIGKILL); one already gone is skipped. */
export function killAll(processes: Array<{ pid: number }>): void {
  for (const { pid } of processes) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
