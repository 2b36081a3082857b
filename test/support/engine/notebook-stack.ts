/**
 * One notebook `research` in an in-process stack (stack.ts) against an
 * emulator of its own, with the platform's view and a console beside it
 * (platform-console.ts): the in-process form of notebook-case.ts, for the
 * cases of what Pulumi shows against what the platform has.
 */
import { expect } from "vitest";
import type { Emulator, EmulatorOptions } from "../../../emulator";
import { startTestEmulator } from "../emulator";
import { platformConsole, type PlatformConsole } from "../platform-console";
import { emulatorStack } from "./programs";
import { CommandFailed, type Declared, type InProcessStack, type Program, type StackOptions } from "./stack";

/** A program of one notebook `research`; `extra` is more of its arguments (or replaces some), `options` its resource options. */
export function research(extra: Record<string, unknown> = {}, options: Pick<Declared, "ignoreChanges" | "timeouts"> = {}): Program {
  const inputs = {
    chargeMode: "elastic",
    duration: 3600,
    image: "jupyter:1",
    imageType: "official",
    serverType: "jupyter",
    replicaSpecs: { specs: "sku-1", customCpu: 2 },
    ...extra,
  };
  return {
    resources: [{ kind: "Notebook", name: "research", inputs, ...options }],
    outputs: (outs) => ({ uuid: outs.research?.uuid, status: outs.research?.status }),
  };
}

export interface InProcessCase extends PlatformConsole {
  emulator: Emulator;
  stack: InProcessStack;
}

/** Cases of one test file, each with its emulator (notebooks ready 50 ms after a start unless told); `dispose` ends them. */
export function inProcessCases() {
  const emulators: Emulator[] = [];
  return {
    async setUp(options: EmulatorOptions = {}, stack: Partial<StackOptions> & { extraConfig?: Record<string, string> } = {}): Promise<InProcessCase> {
      const emulator = await startTestEmulator({ notebookReadyDelayMs: 50, ...options });
      emulators.push(emulator);
      return { emulator, stack: emulatorStack(emulator, stack), ...platformConsole(emulator) };
    },
    async dispose(): Promise<void> {
      for (const e of emulators.splice(0)) await e.close();
    },
  };
}

/** The failure of a command that must fail, with every error in one text. */
export async function failed(command: Promise<unknown>): Promise<CommandFailed & { text: string }> {
  const error = await command.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the command should have failed").toBeInstanceOf(CommandFailed);
  return Object.assign(error as CommandFailed, { text: (error as CommandFailed).errors.join("\n") });
}

/** The operations of a command's steps, as `name:op`. */
export const ops = (result: { steps: Array<{ name: string; op: string }> }) => result.steps.map((s) => `${s.name}:${s.op}`);
