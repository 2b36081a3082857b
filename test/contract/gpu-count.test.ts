/**
 * The guardrails count a notebook's GPUs as the platform allocates them. For
 * generated replica specs (a template or none, `customGpu` given or not,
 * `customGpuList` absent, empty or not, replicas), the pack's count
 * (policy/rules.ts gpusOf, after the pack reads the template the way it does
 * in a preview) equals what the emulator holds once it has made the
 * notebook: its record's replicas times the larger of its `custom_gpu` and
 * the length of its `custom_gpu_list`, each filled from the template where
 * the create left it out (platform-api A2.2). Which of the two the platform
 * honours is not documented; a guardrail counts the larger.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../emulator";
import { createClient, resolveSettings } from "../../client/config";
import type { CreateNotebookRequest } from "../../client/wire";
import { readNotebook } from "../../policy/policies";
import { baseline, gpusOf, maxGpus, type NotebookProps } from "../../policy/rules";
import { TemplateCatalogue } from "../../policy/templates";
import { emulatorCredentials, emulatorZone, startTestEmulator } from "../support/emulator";
import { PlatformWriter } from "../support/platform-writer";

describe("one GPU count, the platform's", () => {
  let emulator: Emulator;
  let environment: NodeJS.ProcessEnv;
  /** Template ids of the shapes: the catalogue's 8-GPU node, and two the test adds whose GPU list is longer or shorter than their count. */
  const templates: number[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator({ notebookReadyDelayMs: 50 });
    environment = {
      QY_ACCESS_KEY_ID: emulatorCredentials.accessKeyId,
      QY_SECRET_ACCESS_KEY: emulatorCredentials.secretAccessKey,
      AICP_BASE_URL: emulator.url,
      AICP_ZONE: emulatorZone,
    };
    const writer = new PlatformWriter({ baseUrl: emulator.url, pathPrefix: "/aicp", zone: emulatorZone, credentials: emulatorCredentials });
    const catalogue = await writer.listTemplates({ limit: 100 });
    templates.push(catalogue.items.find((t) => t.gpu === 8)!.tmp_id!);
    const odd = (name: string, gpu: number, ids: number) => ({
      name,
      cpu: 8,
      memory: 32,
      gpu,
      gpu_list: Array.from({ length: ids }, (_, i) => `GPU-${name}-${i}`),
      rg_id: "rg-publicgpu001",
      rg_node_id: `rgn-${name}`,
      pod_type: ["instance" as const],
    });
    templates.push(...(await writer.createTemplate(odd("long-list", 2, 4))), ...(await writer.createTemplate(odd("short-list", 4, 1))));
    await writer.close();
  });
  afterAll(async () => {
    await emulator?.close();
  });

  const shapes = fc.record(
    {
      templateId: fc.constantFrom(...[0, 1, 2].map((i) => () => templates[i]!)),
      customGpu: fc.integer({ min: 0, max: 8 }),
      customGpuList: fc.integer({ min: 0, max: 8 }),
      replicas: fc.integer({ min: 1, max: 3 }),
    },
    { requiredKeys: [] },
  );

  it("an empty GPU list does not hide the template's GPUs from the per-notebook limit", async () => {
    const props: NotebookProps = { replicaSpecs: { templateId: templates[0], customGpuList: [] } };
    const read = await readNotebook(props, () => new TemplateCatalogue(environment));
    expect(maxGpus("big", read, { ...baseline, maxGpusPerNotebook: 4 })).toEqual([
      `Notebook 'big': replicaSpecs holds 8 GPUs (template ${templates[0]}: 8 per replica), more than the 4 a notebook may hold (maxGpusPerNotebook)`,
    ]);
  });

  it("the pack counts what the emulator holds, for generated replica specs", async () => {
    const client = createClient(resolveSettings(() => undefined, environment));
    try {
      await fc.assert(
        fc.asyncProperty(shapes, async (shape) => {
          const templateId = shape.templateId?.();
          const list = shape.customGpuList === undefined ? undefined : Array.from({ length: shape.customGpuList }, (_, i) => `GPU-given-${i}`);
          const specs = { templateId, customGpu: shape.customGpu, customGpuList: list, replicas: shape.replicas };
          const made = await client.createNotebook({
            namespace: emulatorCredentials.userId,
            user_id: emulatorCredentials.userId,
            name: `gpus-${emulator.listNotebooks().length}`,
            charge_mode: "elastic",
            duration: 3600,
            image: "jupyter:1",
            image_type: "official",
            server_type: "jupyter",
            replica_specs: {
              template_id: templateId,
              custom_gpu: shape.customGpu,
              custom_gpu_list: list,
              replicas: shape.replicas,
              specs: templateId === undefined ? "sku-1" : undefined,
            },
          } as CreateNotebookRequest);
          const record = emulator.listNotebooks().find((n) => n.uuid === made.uuid)!;
          const held = record.replica_specs as { replicas: number; custom_gpu: number; custom_gpu_list: string[] | null };
          const allocated = held.replicas * Math.max(held.custom_gpu, held.custom_gpu_list?.length ?? 0);
          const props: NotebookProps = { replicaSpecs: Object.fromEntries(Object.entries(specs).filter(([, v]) => v !== undefined)) };
          const read = await readNotebook(props, () => new TemplateCatalogue(environment));
          expect(gpusOf(read), JSON.stringify({ specs, held })).toBe(allocated);
        }),
        { numRuns: 60 },
      );
    } finally {
      await client.close();
    }
  });
});
