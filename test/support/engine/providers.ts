/**
 * Provider instances as the engine runs them (stack.ts): the default one,
 * from the stack's aicp:* configuration, and the explicit ones a program
 * declares (`pulumi:providers:aicp` resources with their own arguments).
 * Each explicit instance is served by a plugin of its own, as the engine
 * starts one plugin process per instance; each is configured by CheckConfig
 * (olds: its recorded inputs, so it keeps its stack mark) then Configure, and
 * its checked inputs are recorded in the state. A command that does not run
 * the program (refresh, destroy) configures the recorded instances from
 * their recorded inputs.
 */
import type { Timings } from "../../../provider/timing";
import { startPlugin, type PluginProcess } from "./plugin-process";
import { secret } from "./values";

type Props = Record<string, unknown>;
type CheckResponse = InstanceType<PluginProcess["proto"]["CheckResponse"]>;

/** The provider's version the engine adds to an instance's inputs. */
const version = "0.1.0";

/** The stack's aicp:* configuration as the engine sends it to the default provider: the key marked secret (`pulumi config set --secret`). */
export function stackConfig(config: Record<string, string>): Props {
  return config.secretAccessKey === undefined ? { ...config } : { ...config, secretAccessKey: secret(config.secretAccessKey) };
}

/** CheckConfig of `config` (as the engine sends it: a program's plain values plain) against `olds`, then Configure; the checked inputs, to record. */
export async function checkAndConfigure(p: PluginProcess, urn: string, olds: Props, config: Props): Promise<Props> {
  const news: Props = { ...config, version };
  const checked = await p.call<CheckResponse>(
    "checkConfig",
    new p.proto.CheckRequest().setUrn(urn).setOlds(p.grpc.toStruct(olds)).setNews(p.grpc.toStruct(news)),
  );
  const failures = checked.getFailuresList();
  if (failures.length > 0) throw new Error(failures.map((f) => `${f.getProperty()}: ${f.getReason()}`).join("; "));
  const inputs = p.grpc.toJson(checked.getInputs());
  await configure(p, inputs);
  return inputs;
}

async function configure(p: PluginProcess, inputs: Props): Promise<void> {
  await p.call("configure", new p.proto.ConfigureRequest().setArgs(p.grpc.toStruct(inputs)).setAcceptsecrets(true).setAcceptresources(true));
}

/** The explicit provider instances of one stack: their recorded inputs, and the plugins of the command running. */
export class ExplicitProviders {
  /** Each instance's recorded inputs by name, as the state holds them. */
  readonly recorded: Record<string, Props> = {};
  private readonly running = new Map<string, PluginProcess>();

  constructor(
    private readonly urnOf: (name: string) => string,
    private readonly timings: () => Partial<Timings> | undefined,
  ) {}

  /** The instance `name` the program declares with `args`: its own plugin, checked and configured; recorded unless `dryRun`. */
  async declare(name: string, args: Props, dryRun: boolean): Promise<void> {
    const p = await this.start(name);
    const inputs = await checkAndConfigure(p, this.urnOf(name), this.recorded[name] ?? {}, args);
    if (!dryRun) this.recorded[name] = inputs;
  }

  /** Every recorded instance, configured from its recorded inputs (refresh and destroy do not run the program). */
  async configureRecorded(): Promise<void> {
    for (const [name, inputs] of Object.entries(this.recorded)) await configure(await this.start(name), inputs);
  }

  /** The plugin serving the instance `name` in this command. */
  plugin(name: string): PluginProcess {
    const p = this.running.get(name);
    if (!p) throw new Error(`provider '${name}' is neither declared by the program nor recorded in the state`);
    return p;
  }

  /** Ends this command's plugins. */
  async close(): Promise<void> {
    for (const p of this.running.values()) await p.close();
    this.running.clear();
  }

  /** kill -9 of this command's plugins. */
  kill(): void {
    for (const p of this.running.values()) p.kill();
  }

  private async start(name: string): Promise<PluginProcess> {
    const p = this.running.get(name) ?? (await startPlugin(this.timings()));
    this.running.set(name, p);
    return p;
  }
}
