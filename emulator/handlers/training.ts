/** Training jobs: create and list (platform notes §1) and the pods of a job (spec 4.1). */
import { createTrainingJobRequest, listTrainingJobsQuery, trainingPodsPath } from "../../provider/client/wire";
import { ApiError, notFound, validate } from "../errors";
import type { TrainingJobRecord } from "../records";
import { page, parseWireTime, randomId, stableIp, wireTime } from "../util";
import { type Handler, bodyOf, queryOf } from "./context";

function jobToWire(job: TrainingJobRecord): Record<string, unknown> {
  const { pods: _pods, created_ms, ...rest } = job;
  return { ...rest, created_at: wireTime(created_ms), pod_count: job.pods.length };
}

/** One Kubernetes pod of a replica, with every field spec 2.1 lists. */
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
      labels: { "training.kubeflow.org/job-name": job.name, "training.kubeflow.org/replica-type": type.toLowerCase(), "training.kubeflow.org/replica-index": String(index), "aicp.coreshub.cn/job-uuid": job.uuid },
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
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: "aicp.coreshub.cn/pool", operator: "In", values: ["public"] }] }] } } },
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

/** POST /trains/namespaces/{namespace}/create: the job runs at once, one pod per replica. */
export const createTrainingJob: Handler = (ctx) => {
  const body = bodyOf(createTrainingJobRequest, ctx);
  const namespace = ctx.params.namespace!;
  if (ctx.store.data.jobs.some((j) => j.namespace === namespace && j.name === body.name)) {
    throw new ApiError(409, 409, `training job '${body.name}' already exists in namespace '${namespace}'`);
  }
  const job: TrainingJobRecord = {
    uuid: randomId("tj-"),
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
  return { data: [jobToWire(job)], counts: 0 };
};

/** GET /trains/namespaces/{namespace}/trains: counts is the total. */
export const listTrainingJobs: Handler = (ctx) => {
  const q = queryOf(listTrainingJobsQuery, ctx);
  const from = q.start_at ? parseWireTime(q.start_at) : NaN;
  const to = q.end_at ? parseWireTime(q.end_at) : NaN;
  const all = ctx.store.data.jobs.filter(
    (j) =>
      j.namespace === ctx.params.namespace &&
      (!q.user_id || j.user_id === q.user_id) &&
      (!q.owner || j.user_id === q.owner) &&
      (Number.isNaN(from) || j.created_ms >= from) &&
      (Number.isNaN(to) || j.created_ms <= to),
  );
  return { data: page(all, q.offset, q.limit).map(jobToWire), counts: all.length };
};

/** GET /trains/namespaces/{namespace}/endpoints/{endpoint}/trains/{train_name}/pods: counts is the pod count. */
export const listTrainingPods: Handler = (ctx) => {
  const p = validate(trainingPodsPath, ctx.params, "path");
  const job = ctx.store.data.jobs.find((j) => j.namespace === p.namespace && j.endpoint === p.endpoint && j.name === p.train_name);
  if (!job) throw notFound(`training job '${p.train_name}' (${p.endpoint}) in namespace '${p.namespace}'`);
  return { data: job.pods, counts: job.pods.length };
};
