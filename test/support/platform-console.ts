/**
 * What a user sees and does beside Pulumi: the platform's own view of the one
 * notebook a test's stack manages, the requests the platform received, and a
 * console that changes things out of band (signed requests to the platform's
 * operations, as the web console sends them). Used by the engine tests
 * (notebook-case.ts) and the in-process ones (engine/notebook-stack.ts).
 */
import { expect } from "vitest";
import type { Emulator } from "../../emulator";
import { client } from "../emulator/client";
import { emulatorCredentials } from "./emulator";

export const namespace = emulatorCredentials.userId.toLowerCase();
/** The notebook operations' path under the namespace, as the console's requests use it. */
export const NS = `/notebooks/namespaces/${namespace}`;

/** A time `seconds` from now, as a program writes it. */
export const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

export interface PlatformConsole {
  /** Our one notebook as the platform has it. */
  notebook(): Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Requests of one operation the platform received since the last clear. */
  sent(operation: string): number;
  /** A console: signed requests to the platform's API. */
  console: ReturnType<typeof client>;
}

export function platformConsole(emulator: Emulator): PlatformConsole {
  return {
    notebook: () => {
      const mine = emulator.listNotebooks().filter((n) => n.namespace === namespace);
      expect(mine).toHaveLength(1);
      return mine[0]!;
    },
    sent: (operation) => emulator.requests().filter((r) => r.operation === operation).length,
    console: client(emulator),
  };
}

/** Polls the emulator until `condition` holds of the one notebook, at most 20 s. */
export async function until(c: Pick<PlatformConsole, "notebook">, condition: (nb: Record<string, unknown>) => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(c.notebook()); i++) await new Promise((r) => setTimeout(r, 100));
  expect(condition(c.notebook())).toBe(true);
}

/** Makes a resource group named `name` as the console does (a signed request, no mark); its rgId. */
export async function consoleGroup(emulator: Emulator, name: string): Promise<string> {
  const made = await client(emulator).post("/resource/resource_group", {
    name,
    description: "made by hand",
    sku_id: "sku-1",
    pod_type: ["job"],
    customize_enable: 0,
  });
  expect(made.json?.ret_code, made.text).toBe(0);
  return String(emulator.listResourceGroups().find((g) => g.name === name)!.rg_id);
}
