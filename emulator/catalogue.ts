/**
 * The built-in template catalogue: the GPU, CPU-only and shared-GPU offers a
 * platform account sees, with the platform-owned resource groups they belong
 * to. Values are fixed (not random) so tests can assert on them.
 */
import type { GroupRecord, TemplateRecord } from "./records";
import { stableUuid } from "./util";

/** Seeded platform resource groups; ids follow the rg- + 12 alphanumerics pattern. */
export const PLATFORM_GROUPS = {
  gpu: "rg-publicgpu001",
  hpc: "rg-publicgpu002",
  cpu: "rg-publiccpu001",
  shared: "rg-publicshr001",
} as const;

const SEED_TIME = Date.UTC(2025, 0, 6, 8, 0, 0);

function seedTime(minutes: number): string {
  return new Date(SEED_TIME + minutes * 60_000).toISOString().slice(0, 19);
}

function platformGroup(rg_id: string, name: string, description: string, pod_type: string[], resource_type: string): GroupRecord {
  return {
    rg_id,
    name,
    description,
    sku_id: `sku-${rg_id.slice(3)}`,
    pod_type,
    customize_enable: 0,
    status: "active",
    reason: "",
    user_id: "platform",
    root_user_id: "platform",
    resource_type,
    created_at: seedTime(0),
    updated_at: seedTime(0),
    platform: true,
  };
}

interface GpuModel {
  key: string;
  name: string;
  memory: number;
  cpuPerGpu: number;
  memPerGpu: number;
  cpuModel: string;
  manufacturer: string;
  /** 8-GPU nodes of this model sit on the InfiniBand cluster. */
  ib8: boolean;
}

const GPU_MODELS: GpuModel[] = [
  { key: "a100", name: "NVIDIA A100-80G", memory: 80, cpuPerGpu: 16, memPerGpu: 120, cpuModel: "Intel Xeon Platinum 8358P", manufacturer: "Intel", ib8: true },
  { key: "a800", name: "NVIDIA A800-80G", memory: 80, cpuPerGpu: 16, memPerGpu: 120, cpuModel: "Intel Xeon Platinum 8380", manufacturer: "Intel", ib8: true },
  { key: "h800", name: "NVIDIA H800-80G", memory: 80, cpuPerGpu: 20, memPerGpu: 200, cpuModel: "Intel Xeon Platinum 8468", manufacturer: "Intel", ib8: true },
  { key: "v100", name: "NVIDIA V100-32G", memory: 32, cpuPerGpu: 8, memPerGpu: 60, cpuModel: "Intel Xeon Gold 6248", manufacturer: "Intel", ib8: false },
  { key: "l40s", name: "NVIDIA L40S", memory: 48, cpuPerGpu: 12, memPerGpu: 90, cpuModel: "AMD EPYC 7543", manufacturer: "AMD", ib8: false },
  { key: "4090", name: "NVIDIA GeForce RTX 4090", memory: 24, cpuPerGpu: 12, memPerGpu: 60, cpuModel: "AMD EPYC 7542", manufacturer: "AMD", ib8: false },
];

/** The seeded state: platform groups and about thirty templates visible to `userIds`. */
export function seedCatalogue(userIds: readonly string[]): { groups: GroupRecord[]; templates: TemplateRecord[]; nextTemplateId: number } {
  const groups = [
    platformGroup(PLATFORM_GROUPS.gpu, "public-gpu", "Shared pool of GPU nodes", ["infer", "instance", "job"], "general"),
    platformGroup(PLATFORM_GROUPS.hpc, "public-gpu-ib", "8-GPU nodes on an InfiniBand fabric", ["instance", "job"], "general"),
    platformGroup(PLATFORM_GROUPS.cpu, "public-cpu", "CPU-only nodes", ["infer", "instance", "job"], "general"),
    platformGroup(PLATFORM_GROUPS.shared, "public-shared-gpu", "Fractional GPUs for light workloads", ["infer", "instance"], "shared"),
  ];
  const templates: TemplateRecord[] = [];
  let id = 1001;
  const add = (t: Omit<TemplateRecord, "tmp_id" | "show_user" | "created_at" | "seeded" | "salable">) => {
    templates.push({ ...t, tmp_id: id, show_user: [...userIds], created_at: seedTime(id - 1000), salable: true, seeded: true });
    id++;
  };
  for (const m of GPU_MODELS) {
    for (const gpus of [1, 2, 4, 8]) {
      const ib = gpus === 8 && m.ib8 ? 1 : 0;
      const node = `rgn-${m.key}x${gpus}`;
      add({
        name: `${m.name} x${gpus}`,
        cpu: m.cpuPerGpu * gpus,
        memory: m.memPerGpu * gpus,
        gpu: gpus,
        gpu_memory: m.memory,
        rg_id: ib ? PLATFORM_GROUPS.hpc : PLATFORM_GROUPS.gpu,
        ib,
        rg_node_id: node,
        rg_node_name: `${m.name} ${gpus}-GPU node`,
        pod_type: ["infer", "instance", "job"],
        gpu_list: Array.from({ length: gpus }, (_, i) => `GPU-${stableUuid(`${node}/${i}`)}`),
        gpu_name: m.name,
        hashrate_allocation: 100,
        data_disk_size: 50 * gpus,
        cpu_manufacturer: m.manufacturer,
        cpu_model: m.cpuModel,
        spec_type: "common",
        max_applicable_number: Math.max(1, 8 / gpus),
      });
    }
  }
  for (const [cpu, memory] of [
    [2, 4],
    [4, 8],
    [8, 16],
    [16, 32],
    [32, 64],
  ] as const) {
    add({
      name: `CPU ${cpu}C${memory}G`,
      cpu,
      memory,
      gpu: 0,
      gpu_memory: 0,
      rg_id: PLATFORM_GROUPS.cpu,
      ib: 0,
      rg_node_id: `rgn-cpu${cpu}c${memory}g`,
      rg_node_name: `CPU ${cpu}-core node`,
      pod_type: ["infer", "instance", "job"],
      gpu_list: [],
      gpu_name: "",
      hashrate_allocation: 0,
      data_disk_size: 20,
      cpu_manufacturer: "Intel",
      cpu_model: "Intel Xeon Gold 6330",
      spec_type: "only_cpu",
      max_applicable_number: 16,
    });
  }
  for (const [model, share] of [
    [GPU_MODELS[5]!, 25],
    [GPU_MODELS[5]!, 50],
    [GPU_MODELS[0]!, 50],
  ] as const) {
    const node = `rgn-${model.key}share${share}`;
    add({
      name: `${model.name} ${share}%`,
      cpu: Math.max(2, (model.cpuPerGpu * share) / 100),
      memory: Math.round((model.memPerGpu * share) / 100),
      gpu: 1,
      gpu_memory: Math.round((model.memory * share) / 100),
      rg_id: PLATFORM_GROUPS.shared,
      ib: 0,
      rg_node_id: node,
      rg_node_name: `${model.name} shared node`,
      pod_type: ["infer", "instance"],
      gpu_list: [`GPU-${stableUuid(node)}`],
      gpu_name: model.name,
      hashrate_allocation: share,
      data_disk_size: 20,
      cpu_manufacturer: model.manufacturer,
      cpu_model: model.cpuModel,
      spec_type: "share_gpu",
      max_applicable_number: 4,
    });
  }
  return { groups, templates, nextTemplateId: id };
}
