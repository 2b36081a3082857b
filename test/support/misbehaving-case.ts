/**
 * One case of the misbehaving-platform suite in-process: an in-process case
 * (engine/notebook-stack.ts: its own emulator, a stack against it), and what
 * the case counts from the platform's side and the state's.
 */
import { afterEach } from "vitest";
import type { EmulatorOptions } from "../../emulator";
import { emulatorCredentials } from "./emulator";
import { inProcessCases, research, type InProcessCase } from "./engine/notebook-stack";
import { emulatorStack } from "./engine/programs";
import type { InProcessStack, StackOptions } from "./engine/stack";
import { namespace } from "./platform-console";
import { reliabilityCase, type CaseCounts } from "./reliability";

/** The inputs of the notebook `research` (engine/notebook-stack.ts), `extra` added. */
export const notebookInputs = (extra: Record<string, unknown> = {}) => research(extra).resources[0]!.inputs as Record<string, unknown>;

export interface MisbehavingCase extends InProcessCase {
  /** Another stack of the same project and stack name, as in another backend: a provider instance of its own. */
  twin(): InProcessStack;
  /** Notebooks of our namespace the platform holds (listed or not), not being deleted. */
  live(): Array<Record<string, unknown>>;
  /** Our resource groups the platform holds. */
  groups(): Array<Record<string, unknown>>;
  /** Ids of the notebooks `stack` (this case's by default) records. */
  recorded(stack?: InProcessStack): string[];
}

/** Cases of one file: each gets its emulator, closed after its test; create answers lost are watched for 0.5 s. */
export function misbehavingCases() {
  const cases = inProcessCases();
  afterEach(() => cases.dispose());
  return {
    async setUp(
      options: { emulator?: EmulatorOptions; stack?: Partial<StackOptions> & { extraConfig?: Record<string, string> } } = {},
    ): Promise<MisbehavingCase> {
      const stackOptions = { stack: "ci", ...options.stack, timings: { createWatchMs: 500, ...options.stack?.timings } };
      const c = await cases.setUp(options.emulator, stackOptions);
      const { emulator } = c;
      return {
        ...c,
        twin: () => emulatorStack(emulator, stackOptions),
        live: () => emulator.listNotebooks().filter((n) => n.namespace === namespace && !goneAt(n.auto_delete_time, emulator.clock.now())),
        groups: () => emulator.listResourceGroups().filter((g) => g.user_id === emulatorCredentials.userId),
        recorded: (which = c.stack) => which.resources.filter((r) => r.kind === "Notebook").map((r) => r.id),
      };
    },
  };
}

/** Runs one case of the suite "misbehaving" and records its row, whatever happens. */
export function misbehaving(name: string, body: (row: CaseCounts) => Promise<void>): Promise<void> {
  return reliabilityCase("misbehaving", name, body);
}

function goneAt(autoDeleteTime: unknown, now: number): boolean {
  return typeof autoDeleteTime === "string" && autoDeleteTime !== "" && Date.parse(autoDeleteTime.endsWith("Z") ? autoDeleteTime : `${autoDeleteTime}Z`) <= now;
}
