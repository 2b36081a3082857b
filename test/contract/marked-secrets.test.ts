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
 * showed up could only have come from the program. The plugin records a
 * property that holds a secret as a secret as a whole (plugin/server.ts
 * secretKeys), so every value under it is kept out too: the echo is shown to
 * be there by the image, which no case marks.
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
          expect(text).toContain('"image":"jupyter:1"');
          expect(leaked(text, marked)).toEqual([]);
        }),
        { numRuns: 40 },
      );
    } finally {
      stderr.mockRestore();
    }
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
        expect(text).toContain('"image":"jupyter:1"');
        expect(leaked(text, marked)).toEqual([]);
      }),
      { numRuns: 15 },
    );
  });
});
