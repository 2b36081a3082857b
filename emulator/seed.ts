/**
 * Notebooks created in bulk through the admin API, for paging tests (a
 * namespace of 250 or 1,000 notebooks). They are ordinary notebooks: listed,
 * stoppable, deletable.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { PLATFORM_GROUPS } from "./catalogue";
import { validate } from "./errors";
import type { NotebookRecord } from "./records";
import type { Credential } from "./signature";
import type { Store } from "./state";
import type { SeedNotebooks } from "./types";
import { randomId } from "./util";

const seedSchema = z.strictObject({
  namespace: z.string().regex(/^[^/\\\s]+$/, "must be one path segment"),
  count: z.int().min(1).max(10_000),
  namePrefix: z.string().min(1).optional(),
  userId: z.string().min(1).optional(),
  status: z.enum(["Running", "Stopped"]).optional(),
});

/** The replica spec of a seeded notebook: the smallest CPU-only offer of the catalogue. */
function replicaSpecs(id: number, uuid: string): Record<string, unknown> {
  return {
    id,
    replicas: 1,
    specs: null,
    replica_type: "Worker",
    rg_id: PLATFORM_GROUPS.cpu,
    custom_cpu: 2,
    custom_memory: 4,
    custom_gpu: 0,
    custom_gpu_list: null,
    custom_gpu_name: "",
    custom_gpu_memory: "",
    custom_gpu_type: "",
    custom_system_disk_size: 50,
    custom_data_disk_size: 20,
    custom_infiniband: 0,
    custom_aipods_type: "only_cpu",
    custom_hashrate_allocation: 0,
    custom_network_description: "",
    custom_cpu_model: "Intel Xeon Gold 6330",
    custom_cpu_manufacturer: "Intel",
    notebook_uuid: uuid,
    template_id: null,
  };
}

/**
 * Creates the notebooks `spec` asks for (a 400 ApiError when it is invalid)
 * and returns their uuids in creation order. Names are `<prefix>-NNNN`,
 * numbered on from the notebooks of that prefix already in the namespace.
 */
export function seedNotebooks(store: Store, credentials: readonly Credential[], readyDelayMs: number, spec: SeedNotebooks, now: number): string[] {
  const seed = validate(seedSchema, spec, "body");
  const prefix = seed.namePrefix ?? "seed";
  const owner = seed.userId ?? credentials.find((c) => c.userId.toLowerCase() === seed.namespace)?.userId ?? seed.namespace;
  const first = store.data.notebooks.filter((nb) => nb.namespace === seed.namespace && nb.name.startsWith(`${prefix}-`)).length;
  const running = (seed.status ?? "Running") === "Running";
  const made: NotebookRecord[] = [];
  for (let i = 0; i < seed.count; i++) {
    const uuid = randomId("nb-");
    made.push({
      uuid,
      namespace: seed.namespace,
      name: `${prefix}-${String(first + i).padStart(4, "0")}`,
      user_id: owner,
      root_user_id: owner,
      image: "coreshub/jupyter:py3.11",
      image_type: "official",
      server_type: "jupyter",
      charge_mode: "elastic",
      duration: 3600,
      envs: [],
      stop_time: null,
      auto_delete_time: null,
      pip: "",
      conda: "",
      apt: "",
      custom_first: null,
      custom_second: null,
      replica_specs: replicaSpecs(store.nextRecordId(), uuid),
      volume_specs: [],
      created_ms: now,
      updated_ms: now,
      // Started one ready delay ago, so a Running seed is Running at once.
      started_ms: now - readyDelayMs,
      stopped: !running,
      run_ms_before: 0,
      password: randomBytes(9).toString("base64url"),
    });
  }
  store.mutate((d) => d.notebooks.push(...made));
  return made.map((nb) => nb.uuid);
}
