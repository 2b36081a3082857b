/** The in-process engine's vocabulary (stack.ts): a program's declarations, the records of a stack's state, and what a command reports. */
import type { Timings } from "../../../provider/timing";

export type Kind = "Notebook" | "ResourceGroup";
export type Props = Record<string, unknown>;

/** Every resource's outputs by name, with its `id`: what a program's later resources read. */
export type Outputs = Record<string, Props>;

/** Calls a provider function (`aicp:index:<name>`) as a program's data source does. */
export type Invoke = (name: string, args: Props) => Promise<Props>;

export interface Declared {
  kind: Kind;
  name: string;
  /** Where later resources and the stack outputs find this one's outputs; the name by default. */
  key?: string;
  /** The inputs, or how the program computes them from earlier resources' outputs and the provider's functions. */
  inputs: Props | ((outs: Outputs, invoke: Invoke) => Props | Promise<Props>);
  ignoreChanges?: string[];
  deleteBeforeReplace?: boolean;
  /** customTimeouts in seconds. */
  timeouts?: { create?: number; update?: number; delete?: number };
  /** The type chain of its parent (`team:a:Team`; `a:A$b:B` for a grandparent), which its URN names. */
  parent?: string;
  /** The explicit provider instance (a name in Program.providers) that manages it; the default one otherwise. */
  provider?: string;
  /** The import option: the id of an existing object this resource takes over. */
  import?: string;
}

export interface Program {
  resources: Declared[];
  /** The stack outputs, from the resources' outputs and the provider's functions. */
  outputs?: (outs: Outputs, invoke: Invoke) => Props | Promise<Props>;
  /** Explicit provider instances (`pulumi:providers:aicp` resources) by name, with their arguments. */
  providers?: Record<string, Props>;
}

export interface Recorded {
  kind: Kind;
  name: string;
  urn: string;
  id: string;
  inputs: Props;
  outputs: Props;
  initErrors: string[];
  provider?: string;
}

export interface Step {
  kind: Kind;
  name: string;
  op: "create" | "update" | "replace" | "same" | "delete" | "refresh" | "import";
  diffs: string[];
  replaces: string[];
}

export interface CommandResult {
  steps: Step[];
  /** Each resource's outputs by key as the command leaves them; a preview's are what it would record (values.ts previewOutputs). */
  outputs: Outputs;
  /** What the provider warned of (the engine prints these under "Diagnostics"). */
  warnings: string[];
}

/** A failed command: every error, as the CLI prints them, and what was done before. */
export class CommandFailed extends Error {
  constructor(
    readonly command: string,
    readonly result: CommandResult,
    readonly errors: string[],
  ) {
    super(`${command} failed: ${errors.join("\n")}`);
  }
}

export interface StackOptions {
  project?: string;
  stack?: string;
  /** The aicp:* configuration, keys without the `aicp:` prefix. */
  config: Record<string, string>;
  timings?: Partial<Timings>;
}
