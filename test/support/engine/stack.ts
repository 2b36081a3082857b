/**
 * An engine in the test's process: a stack's state, and `up`, `preview`,
 * `refresh` and `destroy` calling the provider plugin (plugin-process.ts) as
 * Pulumi's engine does, one fresh plugin per command. The rules followed are
 * the engine's own (pkg/resource/deploy/step_generator.go and step.go of
 * pulumi v3.259.0):
 * - ignoreChanges puts the recorded inputs back before Check;
 * - a diff the provider cannot decide (DIFF_UNKNOWN) is decided by comparing
 *   the recorded inputs with the new ones;
 * - a resource recorded with initialization errors gets an Update even when
 *   nothing changed; a refresh clears those errors;
 * - a replacement deletes first when the diff or the resource asks for it,
 *   else creates first and deletes the old object at the end; a create that
 *   made nothing leaves the old record as it was (one that made an object but
 *   failed drops it, where the engine would keep it as a pending delete);
 * - a failed Create or Update that made an object (ErrorResourceInitFailed)
 *   is recorded with its id and state (records.ts), and the command fails;
 * - what the program no longer declares is deleted after the rest, last first;
 * - explicit provider instances (Program.providers) each run a plugin of their
 *   own, configured from their own arguments (providers.ts);
 * - the import option reads the id with nothing recorded, then checks and
 *   diffs the program's inputs against what was read: an update if they
 *   differ in place, an error if they would replace it (import.ts);
 *   import() is `pulumi import`: the read recorded as it is;
 * - a preview records, of what it would create or update, the checked inputs
 *   as outputs (the plugin does not support preview) and the rest unknown;
 * - a resource's URN names its parents' types (`parentType$aicp:index:Notebook`);
 * - kill(), kill -9 of the engine and its plugin mid-command: what finished
 *   before stays recorded (the engine's checkpoints), the step in flight
 *   records nothing, and the next command starts a fresh plugin;
 * - values marked secret (by the program, secret(), or by the provider's
 *   answers) are written to the checkpoint encrypted (checkpoint()).
 * It leaves out what only the real engine shows (the CLI, the languages'
 * SDKs, processes and signals); the engine project tests those.
 */
import { vi } from "vitest";
import { checkCall, deleteCall, diffCall, invokeCall, readCall } from "./calls";
import { readForImport } from "./import";
import { startPlugin, type PluginProcess } from "./plugin-process";
import { CommandFailed, type CommandResult, type Declared, type Kind, type Program, type Props, type Recorded, type StackOptions, type Step } from "./types";
import { checkAndConfigure, ExplicitProviders, stackConfig } from "./providers";
import { createRecorded, updateRecorded } from "./records";
import { encrypted, previewOutputs, withIgnored } from "./values";

export { isUnknown, plain, secret } from "./values";
export * from "./types";

export class InProcessStack {
  readonly resources: Recorded[] = [];
  outputs: Props = {};
  private providerInputs: Props = {};
  private plugin: PluginProcess | undefined;
  /** The plugin of the explicit provider instance serving the resource at hand, if not the default one. */
  private current: PluginProcess | undefined;
  private readonly explicit = new ExplicitProviders(
    (name) => this.providerUrn(name),
    () => this.options.timings,
  );

  constructor(readonly options: StackOptions) {}

  urnOf(kind: Kind, name: string, parent?: string): string {
    return `urn:pulumi:${this.options.stack ?? "dev"}::${this.options.project ?? "aicp-test"}::${parent ? `${parent}$` : ""}aicp:index:${kind}::${name}`;
  }

  /** The record of the resource `name` (of `kind`, where a group and a notebook share the name). */
  find(name: string, kind?: Kind): Recorded | undefined {
    return this.resources.find((r) => r.name === name && (kind === undefined || r.kind === kind));
  }

  /** The state as the engine writes it to its backend: every value marked secret encrypted (shown here as "[secret]"). */
  checkpoint(): string {
    return JSON.stringify({
      provider: encrypted(this.providerInputs),
      providers: encrypted(this.explicit.recorded),
      resources: encrypted(this.resources),
      outputs: encrypted(this.outputs),
    });
  }

  /** `pulumi state delete` of the records `which` selects. */
  stateDelete(which: (r: Recorded) => boolean): void {
    for (let i = this.resources.length - 1; i >= 0; i--) if (which(this.resources[i]!)) this.resources.splice(i, 1);
  }

  async preview(program: Program, options: { replace?: string[] } = {}): Promise<CommandResult> {
    return this.command("preview", (result) => this.deploy(program, result, { ...options, dryRun: true }));
  }

  async up(program: Program, options: { replace?: string[]; refresh?: boolean } = {}): Promise<CommandResult> {
    return this.command("up", async (result) => {
      if (options.refresh) await this.readAll(result);
      await this.deploy(program, result, { ...options, dryRun: false });
    });
  }

  /** `pulumi import <type> <name> <id>`: the object read (import.ts) and recorded with the inputs read, from which the CLI writes the program's code. */
  async import(kind: Kind, name: string, id: string): Promise<CommandResult> {
    return this.command("import", async (result) => {
      await this.configure();
      const urn = this.urnOf(kind, name);
      if (this.resources.some((r) => r.urn === urn)) throw new Error(`resource '${urn}' already exists`);
      this.resources.push({ kind, name, urn, ...(await readForImport(this.p, urn, id)), initErrors: [] });
      result.steps.push({ kind, name, op: "import", diffs: [], replaces: [] });
    });
  }

  async refresh(): Promise<CommandResult> {
    return this.command("refresh", (result) => this.readAll(result));
  }

  /** kill -9 of the engine and its plugin while a command runs (see PluginProcess.kill): that command fails, its step in flight unrecorded. */
  kill(): void {
    this.plugin?.kill();
    this.explicit.kill();
  }

  async destroy(): Promise<CommandResult> {
    return this.command("destroy", async (result) => {
      await this.configure();
      await this.explicit.configureRecorded();
      for (const r of [...this.resources].reverse()) await this.remove(r, result);
      this.outputs = {};
    });
  }

  /** Runs one command with a fresh plugin, collecting its steps and warnings; throws CommandFailed on any error. */
  private async command(name: string, body: (result: CommandResult) => Promise<void>): Promise<CommandResult> {
    const result: CommandResult = { steps: [], outputs: {}, warnings: [] };
    const stderr = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      const line = args.map(String).join(" ");
      if (line.startsWith("warning: ")) result.warnings.push(line.slice("warning: ".length));
    });
    this.plugin = await startPlugin(this.options.timings);
    try {
      await body(result);
      return result;
    } catch (error) {
      throw new CommandFailed(name, result, [error instanceof Error ? error.message : String(error)]);
    } finally {
      stderr.mockRestore();
      this.current = undefined;
      await this.explicit.close();
      await this.plugin.close();
      this.plugin = undefined;
    }
  }

  private get p(): PluginProcess {
    if (!this.plugin) throw new Error("no command is running");
    return this.current ?? this.plugin;
  }

  /** The default provider: CheckConfig (which keeps the recorded stack mark), then Configure. */
  private async configure(): Promise<void> {
    this.providerInputs = await checkAndConfigure(this.p, this.providerUrn("default"), this.providerInputs, stackConfig(this.options.config));
  }

  private providerUrn(name: string): string {
    return `urn:pulumi:${this.options.stack ?? "dev"}::${this.options.project ?? "aicp-test"}::pulumi:providers:aicp::${name}`;
  }

  /** The calls that follow go to the plugin of the provider instance `provider` (the default one when undefined). */
  private use(provider: string | undefined): void {
    this.current = provider === undefined ? undefined : this.explicit.plugin(provider);
  }

  private async deploy(program: Program, result: CommandResult, options: { replace?: string[]; dryRun: boolean }): Promise<void> {
    await this.configure();
    for (const [name, args] of Object.entries(program.providers ?? {})) await this.explicit.declare(name, args, options.dryRun);
    const outs = result.outputs;
    const deleteAtEnd: Recorded[] = [];
    for (const declared of program.resources) {
      const urn = this.urnOf(declared.kind, declared.name, declared.parent);
      const key = declared.key ?? declared.name;
      const step = (op: Step["op"], diff: { diffs: string[]; replaces: string[] } = { diffs: [], replaces: [] }) =>
        result.steps.push({ kind: declared.kind, name: declared.name, op, diffs: diff.diffs, replaces: diff.replaces });
      this.use(undefined);
      const news = typeof declared.inputs === "function" ? await declared.inputs(outs, (name, args) => this.invoke(name, args)) : declared.inputs;
      this.use(declared.provider);
      const recorded = this.resources.find((r) => r.urn === urn);
      const imported =
        declared.import !== undefined && recorded?.id !== declared.import ? await this.importOption(declared, urn, recorded, options.dryRun) : undefined;
      if (imported) step("import");
      const old = imported ?? recorded;
      const inputs = old ? withIgnored(news, old.inputs, declared.ignoreChanges ?? []) : news;
      const checked = await this.check(urn, old?.inputs ?? {}, inputs);
      if (!old) {
        step("create");
        outs[key] = options.dryRun ? previewOutputs(checked) : { ...(await this.create(declared, urn, checked)).outputs };
        continue;
      }
      const diff = await this.diff(old, checked, declared.ignoreChanges ?? []);
      const forced = options.replace?.includes(key) === true;
      if (forced || diff.replaces.length > 0) {
        step("replace", diff);
        if (declared.import !== undefined) {
          const message =
            `previously-imported resources that still specify an ID may not be replaced; please remove the \`import\` declaration from your ` +
            `program;\n${diff.replaces.join(", ")}`;
          if (!options.dryRun) throw new Error(message);
          result.warnings.push(message);
        }
        if (options.dryRun) {
          outs[key] = previewOutputs(checked);
          continue;
        }
        const deleteFirst = declared.deleteBeforeReplace || (!forced && diff.deleteBeforeReplace);
        if (deleteFirst) await this.remove(old, undefined);
        try {
          outs[key] = { ...(await this.create(declared, urn, checked)).outputs };
        } finally {
          // Create first: the old record goes once a new object exists (CreateStep.Apply); a create that made nothing leaves it.
          if (!deleteFirst && this.resources.some((r) => r.urn === urn && r !== old)) {
            this.stateDelete((r) => r === old);
            deleteAtEnd.push(old);
          }
        }
      } else if (diff.changed || old.initErrors.length > 0) {
        step("update", diff);
        outs[key] = options.dryRun ? previewOutputs(checked, old.id) : { ...(await this.update(old, checked, declared)).outputs };
      } else {
        // An import that matches the program records what it read, with no step of its own after the import.
        if (!imported) step("same", diff);
        if (!options.dryRun && !imported) old.inputs = checked;
        outs[key] = { ...old.outputs, id: old.id };
      }
    }
    const declaredUrns = new Set(program.resources.map((r) => this.urnOf(r.kind, r.name, r.parent)));
    const gone = this.resources.filter((r) => !declaredUrns.has(r.urn));
    for (const r of [...gone].reverse()) {
      if (options.dryRun) result.steps.push({ kind: r.kind, name: r.name, op: "delete", diffs: [], replaces: [] });
      else await this.remove(r, result);
    }
    for (const r of deleteAtEnd) await this.remove(r, undefined);
    this.use(undefined);
    if (!options.dryRun) this.outputs = program.outputs ? await program.outputs(outs, (name, args) => this.invoke(name, args)) : {};
  }

  /** The import option's read (import.ts): what it records, kept only when not a preview. */
  private async importOption(declared: Declared, urn: string, recorded: Recorded | undefined, dryRun: boolean): Promise<Recorded> {
    if (recorded) throw new Error(`the in-process engine does not model an import that replaces the recorded ${urn}`);
    const read = await readForImport(this.p, urn, declared.import!);
    const made: Recorded = { kind: declared.kind, name: declared.name, urn, ...read, initErrors: [], provider: declared.provider };
    if (!dryRun) this.resources.push(made);
    return made;
  }

  /** A function call through the plugin's Invoke. */
  async invoke(name: string, args: Props): Promise<Props> {
    return invokeCall(this.p, name, args);
  }

  private async check(urn: string, olds: Props, news: Props): Promise<Props> {
    return checkCall(this.p, urn, olds, news);
  }

  private async diff(old: Recorded, news: Props, ignoreChanges: string[]) {
    return diffCall(this.p, old, news, ignoreChanges);
  }

  private async create(declared: Declared, urn: string, inputs: Props): Promise<Recorded> {
    return createRecorded(this.p, this.resources, declared, urn, inputs);
  }

  private async update(old: Recorded, news: Props, declared: Declared): Promise<Recorded> {
    return updateRecorded(this.p, old, news, declared);
  }

  private async remove(r: Recorded, result: CommandResult | undefined): Promise<void> {
    this.use(r.provider);
    result?.steps.push({ kind: r.kind, name: r.name, op: "delete", diffs: [], replaces: [] });
    await deleteCall(this.p, r);
    this.stateDelete((x) => x === r);
  }

  private async readAll(result: CommandResult): Promise<void> {
    await this.configure();
    await this.explicit.configureRecorded();
    for (const r of [...this.resources]) {
      this.use(r.provider);
      const read = await readCall(this.p, r);
      result.steps.push({ kind: r.kind, name: r.name, op: "refresh", diffs: [], replaces: [] });
      if (read.id === "") {
        this.stateDelete((x) => x === r);
        continue;
      }
      Object.assign(r, { ...read, initErrors: [] });
    }
  }
}
