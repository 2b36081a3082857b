/** Training jobs: create and list (platform-api B1) and the pods of a job (platform-api A4.1). */
import { ApiError, notFound } from "../errors";
import type { TrainingJobRecord } from "../records";
import { createTrainingJobBody, listTrainingJobsQuery } from "../schemas/training";
import { formatBare, parseDateTime } from "../times";
import type { Dialect } from "../types";
import { randomId, stableIp } from "../util";
import { type Handler, bodyOf, compareValues, listPage, queryOf } from "./context";
import { replicaRefs } from "./tenancy";

function jobToWire(job: TrainingJobRecord, dialect: Dialect): Record<string, unknown> {
  const { pods: _pods, created_ms, ...rest } = job;
  return { ...rest, created_at: formatBare(created_ms, dialect.bareTimeZone), pod_count: job.pods.length };
}

/** One Kubernetes pod of a replica, with every field platform-api A2.1 lists. */
function makePod(job: TrainingJobRecord, spec: Record<string, unknown>, index: number): Record<string, unknown> {
  const type = String(spec.replica_type);
  const name = `${job.name}-${type.toLowerCase()}-${index}`;
  const gpus = Number(spec.custom_gpu ?? 0);
  const cpu = String(spec.custom_cpu ?? 4);
  const memory = `${Number(spec.custom_memory ?? 16)}Gi`;
  const limits: Record<string, string> = { cpu, memory, "nvidia.com/gpu": String(gpus) };
  const node = `aicp-node-${stableIp(name, 0).split(".").slice(1, 3).join("-")}`;
  return {
    kind: "Pod",
    apiVersion: "v1",
    metadata: {
      name,
      namespace: job.namespace,
      labels: {
        "training.kubeflow.org/job-name": job.name,
        "training.kubeflow.org/replica-type": type.toLowerCase(),
        "training.kubeflow.org/replica-index": String(index),
        "aicp.coreshub.cn/job-uuid": job.uuid,
      },
      annotations: { "aicp.coreshub.cn/endpoint": job.endpoint, "aicp.coreshub.cn/user-id": job.user_id },
    },
    spec: {
      nodeName: node,
      containers: [
        {
          name: job.endpoint === "pytorchjobs" ? "pytorch" : "tensorflow",
          image: job.image,
          command: job.command ? ["/bin/sh", "-c", job.command] : [],
          resources: { limits, requests: { ...limits } },
          env: [
            { name: "AICP_JOB_NAME", value: job.name },
            { name: "AICP_REPLICA_TYPE", value: type },
            { name: "AICP_REPLICA_INDEX", value: String(index) },
          ],
        },
      ],
      volumes: [{ name: "dshm", emptyDir: { medium: "Memory" } }],
      nodeSelector: spec.custom_gpu_name ? { "aicp.coreshub.cn/gpu-name": String(spec.custom_gpu_name) } : { "aicp.coreshub.cn/pool": "public" },
      tolerations: [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: "aicp.coreshub.cn/pool", operator: "In", values: ["public"] }] }],
          },
        },
      },
    },
    status: {
      phase: "Running",
      hostIP: stableIp(node, 172),
      podIP: stableIp(name),
      qosClass: "Guaranteed",
      startTime: new Date(job.created_ms).toISOString().replace(/\.\d{3}Z$/, "Z"),
      containerStatuses: [
        {
          name: job.endpoint === "pytorchjobs" ? "pytorch" : "tensorflow",
          image: job.image,
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: new Date(job.created_ms + 2000).toISOString().replace(/\.\d{3}Z$/, "Z") } },
        },
      ],
    },
  };
}

/** POST /trains/namespaces/{namespace}/create: the job runs at once, one pod per replica; ids start `tn-` (platform-api B5). */
export const createTrainingJob: Handler = (ctx) => {
  const body = bodyOf(createTrainingJobBody, ctx);
  const namespace = ctx.params.namespace!;
  body.replica_specs.forEach((spec, i) => replicaRefs(ctx, spec, `replica_specs[${i}]`));
  if (ctx.store.data.jobs.some((j) => j.namespace === namespace && j.name === body.name)) {
    throw new ApiError(409, 409, `training job '${body.name}' already exists in namespace '${namespace}'`);
  }
  const job: TrainingJobRecord = {
    uuid: randomId("tn-"),
    name: body.name,
    namespace,
    endpoint: body.endpoint,
    user_id: ctx.user.userId,
    image: body.image,
    image_type: body.image_type,
    command: body.command ?? "",
    charge_mode: body.charge_mode,
    duration: body.duration,
    status: "Running",
    replica_specs: body.replica_specs.map((s) => ({ ...s })),
    created_ms: ctx.now,
    pods: [],
  };
  for (const spec of job.replica_specs) {
    for (let i = 0; i < Number(spec.replicas); i++) job.pods.push(makePod(job, spec, i));
  }
  ctx.store.mutate((d) => d.jobs.push(job));
  return { data: [jobToWire(job, ctx.dialect)], counts: 0 };
};

const JOB_ORDER = new Set(["created_at", "name", "status", "uuid"]);

/**
 * GET /trains/namespaces/{namespace}/trains with the notes' filters (owner,
 * user_id, created between start_at and end_at) and the operator SDK's (name
 * and image_name partial, status and endpoints lists, order_by, reverse).
 */
export const listTrainingJobs: Handler = (ctx) => {
  const q = queryOf(listTrainingJobsQuery, ctx);
  const orderBy = q.order_by || "created_at";
  if (!JOB_ORDER.has(orderBy)) {
    throw new ApiError(400, 400, `invalid request query: order_by: cannot sort by '${orderBy}'; use one of ${[...JOB_ORDER].join(", ")}`);
  }
  const zone = ctx.dialect.bareTimeZone;
  const from = q.start_at ? parseDateTime(q.start_at, zone) : undefined;
  const to = q.end_at ? parseDateTime(q.end_at, zone) : undefined;
  const name = q.name?.toLowerCase();
  const image = q.image_name?.toLowerCase();
  const statuses = q.status && q.status.length > 0 ? new Set(q.status.map((s) => s.toLowerCase())) : undefined;
  const endpoints = q.endpoints && q.endpoints.length > 0 ? new Set(q.endpoints) : undefined;
  const all = ctx.store.data.jobs.filter(
    (j) =>
      j.namespace === ctx.params.namespace &&
      (!q.user_id || j.user_id === q.user_id) &&
      (!q.owner || j.user_id === q.owner) &&
      (!name || j.name.toLowerCase().includes(name)) &&
      (!image || j.image.toLowerCase().includes(image)) &&
      (!statuses || statuses.has(j.status.toLowerCase())) &&
      (!endpoints || endpoints.has(j.endpoint)) &&
      (from === undefined || j.created_ms >= from) &&
      (to === undefined || j.created_ms <= to),
  );
  const key = orderBy === "created_at" ? "created_ms" : (orderBy as keyof TrainingJobRecord);
  const sorted = all.map((j, i) => ({ j, i })).sort((a, b) => compareValues(a.j[key], b.j[key]) || a.i - b.i);
  if (q.reverse) sorted.reverse();
  return listPage(ctx, sorted, q.offset, q.limit, ({ j }) => jobToWire(j, ctx.dialect));
};

/** GET /trains/namespaces/{namespace}/endpoints/{endpoint}/trains/{train_name}/pods: counts is the pod count. */
export const listTrainingPods: Handler = (ctx) => {
  const { namespace, endpoint, train_name } = ctx.params as { namespace: string; endpoint: string; train_name: string };
  const job = ctx.store.data.jobs.find((j) => j.namespace === namespace && j.endpoint === endpoint && j.name === train_name);
  if (!job) throw notFound(`training job '${train_name}' (${endpoint}) in namespace '${namespace}'`);
  return { data: job.pods, counts: job.pods.length };
};
