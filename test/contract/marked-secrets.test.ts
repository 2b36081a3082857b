/**
 * What the program marks secret stays out of everything the provider prints,
 * on both fronts, whatever the platform echoes. The platform here refuses
 * each create (its resource group does not exist) and repeats the request's
 * URL and body in its error (the emulator's echoRequests switch, as a
 * gateway or a verbose platform may). For generated sets of marked paths,
 * top-level and nested, and generated values, no marked value appears:
 * - TypeScript front: in the error or the warnings of the dynamic provider's
 *   operations, called as the engine calls them (provider/index.ts forKind),
 *   with the paths the SDK sends (`secretInputs`, sdk/secret-paths.ts; the
 *   SDK's half is test/unit/sdk-secrets.test.ts);
 * - plugin: in what the failed `up` prints or warns, or in the checkpoint, through the
 *   in-process engine (test/support/engine), values marked as Pulumi marks them.
 * The values share no text with anything else of the request: a value that
 * showed up could only have come from the program. What the program did not
 * mark stays readable on both fronts, the resource group the platform names
 * in its refusal included (no case marks `replicaSpecs.rgId`).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Emulator } from "../../emulator";
import { configureFrom } from "../../provider/context";
import { forKind } from "../../provider/index";
import { emulatorConfig, startTestEmulator } from "../support/emulator";
import { emulatorStack } from "../support/engine/programs";
import { secret, type Props } from "../support/engine/stack";

/** Paths of string inputs a program may mark: scripts, and a field of the replica spec. */
const markable = ["pip", "conda", "apt", "customFirst", "customSecond", "replicaSpecs.customGpuName"] as const;
type Markable = (typeof markable)[number];

/** A value for each marked path: printable text the JSON and URL forms escape differently (quotes, slashes, spaces, `+`, `%`). */
const markedValues = fc.dictionary(
  fc.constantFrom(...markable),
  fc.string({ unit: fc.constantFrom(..."ab9Z \"'/\\+%&=:@-_.".split("")), minLength: 4, maxLength: 24 }),
  { minKeys: 1 },
);

/** Each generated value made unique to its run, so that a value remembered by an earlier run cannot hide this one's. */
let run = 0;
function unique(values: Partial<Record<Markable, string>>): Array<[Markable, string]> {
  run += 1;
  return Object.entries(values).map(([path, value]) => [path as Markable, `${value}~tok${run}x${path.length}~`]);
}

/** A notebook's inputs with `marked` set at their paths; `mark` wraps each marked value as the front marks it. */
function notebookInputs(marked: Array<[Markable, string]>, mark: (value: string) => unknown): Props {
  const replicaSpecs: Props = { specs: "sku-1", customCpu: 2, rgId: "rg-that-does-not-exist" };
  const inputs: Props = { chargeMode: "elastic", duration: 3600, image: "jupyter:1", imageType: "official", serverType: "jupyter", replicaSpecs };
  for (const [path, value] of marked) {
    if (path === "replicaSpecs.customGpuName") replicaSpecs.customGpuName = mark(value);
    else inputs[path] = mark(value);
  }
  return inputs;
}

/** The values of `marked` found in `text`. */
const leaked = (text: string, marked: Array<[Markable, string]>) =>
  marked.flatMap(([, value]) => [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]).filter((form) => text.includes(form));

describe("values the program marks secret, echoed by the platform", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 50 });
    emulator.misbehave({ echoRequests: true });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("TypeScript front: never appear in the error or the warnings of a refused create", async () => {
    const config = Object.fromEntries(Object.entries(emulatorConfig(emulator)).map(([k, v]) => [k, v.value]));
    configureFrom((key) => config[key]);
    const printed: string[] = [];
    const stderr = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" ")));
    try {
      await fc.assert(
        fc.asyncProperty(markedValues, async (values) => {
          const marked = unique(values);
          printed.length = 0;
          const news = { ...notebookInputs(marked, (v) => v), logicalName: "nb", secretInputs: marked.map(([path]) => path).sort() };
          const provider = forKind("Notebook");
          const checked = await provider.check({} as never, news as never);
          expect(checked.failures ?? []).toEqual([]);
          const error = (await provider.create(checked.inputs as never).then(
            () => undefined,
            (e: unknown) => e,
          )) as Error | undefined;
          expect(error, "the platform refuses the create").toBeInstanceOf(Error);
          const text = [String(error), error!.stack ?? "", JSON.stringify(error), ...printed].join("\n");
          // The echo is there (the test can fail), and holds none of the marked values.
          expect(text).toContain("resource group 'rg-that-does-not-exist' not found");
          expect(leaked(text, marked)).toEqual([]);
        }),
        { numRuns: 40 },
      );
    } finally {
      stderr.mockRestore();
    }
  });

  it("TypeScript front: a check failure shows no marked value, however long or short", async () => {
    const provider = forKind("Notebook");
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ minLength: 81, maxLength: 200 }), fc.string({ minLength: 1, maxLength: 3 })), async (noise) => {
        run += 1;
        // Not a date-time: check fails on it. Long values are cut in messages; the kept prefix carries the run's token.
        const value = noise.length > 3 ? `tok${run}~${noise}` : noise;
        const news = { ...notebookInputs([], (v) => v), stopTime: value, logicalName: "nb", secretInputs: ["stopTime"] };
        const { failures } = await provider.check({} as never, news as never);
        const text = (failures ?? []).map((f) => f.reason).join("\n");
        expect(text).toContain("stopTime");
        if (noise.length > 3) expect(text).not.toContain(`tok${run}~`);
        else expect(text).not.toContain(`got ${JSON.stringify(value)}`);
      }),
      { numRuns: 40 },
    );
  });

  it("TypeScript front: a refresh in a fresh process leaves out what the create was told was marked", async () => {
    const config = Object.fromEntries(Object.entries(emulatorConfig(emulator)).map(([k, v]) => [k, v.value]));
    configureFrom((key) => config[key]);
    emulator.misbehave({ echoRequests: false });
    const token = `pip-token-${Date.now()}`;
    const inputs = { ...notebookInputs([], (v) => v), pip: token, logicalName: "refreshed", secretInputs: ["pip"] } as Props;
    (inputs.replicaSpecs as Props).rgId = undefined;
    const provider = forKind("Notebook");
    const checked = await provider.check({} as never, inputs as never);
    const made = await provider.create(checked.inputs as never);
    expect(made.outs).toMatchObject({ secretInputs: ["pip"], pip: token });
    // A process that never saw the check: what `pulumi refresh` and `pulumi destroy` start.
    vi.resetModules();
    const fresh = (await import("../../provider/index")) as typeof import("../../provider/index");
    const errors = (await import("../../client/errors")) as typeof import("../../client/errors");
    (await import("../../provider/context")).configureFrom((key) => config[key]);
    expect(errors.redact(`pip ${token}`)).toBe(`pip ${token}`);
    await fresh.forKind("Notebook").read(made.id as never, made.outs as never);
    expect(errors.redact(`pip ${token}`)).toBe("pip <secret>");
    emulator.misbehave({ echoRequests: true });
  });

  it("both fronts: a rule that quotes a marked value does not show it, however short", async () => {
    const news = { ...notebookInputs([], (v) => v), desiredState: "Ru", logicalName: "nb", secretInputs: ["desiredState"] };
    const { failures } = await forKind("Notebook").check({} as never, news as never);
    const typescript = (failures ?? []).map((f) => f.reason).join("\n");
    expect(typescript).toContain("desiredState must be");
    expect(typescript).not.toMatch(/\bRu\b/);
    const stack = emulatorStack(emulator);
    const failure = await stack
      .preview({ resources: [{ kind: "Notebook", name: "nb", inputs: { ...notebookInputs([], (v) => v), desiredState: secret("Ru") } }] })
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      );
    expect(failure?.message).toContain("desiredState must be");
    expect(failure?.message).not.toMatch(/\bRu\b/);
  });

  it("plugin: a platform id beside a marked value stays readable in messages", async () => {
    const stack = emulatorStack(emulator);
    const inputs = notebookInputs([["replicaSpecs.customGpuName", "gpu-model-marked"]], secret);
    delete (inputs.replicaSpecs as Props).rgId;
    await stack.up({ resources: [{ kind: "Notebook", name: "kept", inputs }] });
    const uuid = String(stack.find("kept")!.id);
    emulator.deleteNotebook(uuid);
    // An update of a notebook gone from the platform names it; the recorded outputs hold the uuid inside replicaSpecs.
    const failure = await stack.up({ resources: [{ kind: "Notebook", name: "kept", inputs: { ...inputs, stopTime: "2099-01-01T00:00:00Z" } }] }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(failure?.message).toContain(`notebook ${uuid} no longer exists`);
    expect(failure?.message).not.toContain("gpu-model-marked");
  });

  it("plugin: never appear in what a refused up prints, or in the checkpoint", async () => {
    await fc.assert(
      fc.asyncProperty(markedValues, async (values) => {
        const marked = unique(values);
        const stack = emulatorStack(emulator);
        const failure = await stack.up({ resources: [{ kind: "Notebook", name: "nb", inputs: notebookInputs(marked, secret) }] }).then(
          () => undefined,
          (e: unknown) => e as Error & { errors?: string[]; result?: { warnings: string[] } },
        );
        expect(failure, "the platform refuses the create").toBeDefined();
        const text = [failure!.message, ...(failure!.errors ?? []), ...(failure!.result?.warnings ?? []), stack.checkpoint()].join("\n");
        expect(text).toContain("resource group 'rg-that-does-not-exist' not found");
        expect(leaked(text, marked)).toEqual([]);
      }),
      { numRuns: 15 },
    );
  });
});
