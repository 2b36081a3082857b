/** Wire schemas of training jobs and their pods: platform-api A2.1 and A4.1, platform-api B1. */
import { z } from "zod";
import { maybe, pathSegment, reportAlways, requiredString } from "./common";
import { chargeMode, imageType } from "./notebook";

/** Path parameters of the pods operation. */
export const trainingPodsPath = z.strictObject({
  namespace: pathSegment,
  endpoint: pathSegment,
  train_name: pathSegment,
});
export type TrainingPodsPath = z.input<typeof trainingPodsPath>;

const stringMap = z.record(z.string(), z.string());
const anyMap = z.record(z.string(), z.unknown());

/** A Kubernetes pod as the platform returns it (platform-api A2.1); keys are Kubernetes', not snake_case. */
export const pod = z
  .looseObject({
    kind: maybe(z.string()),
    apiVersion: maybe(z.string()),
    metadata: maybe(
      z.looseObject({
        name: maybe(z.string()),
        namespace: maybe(z.string()),
        labels: maybe(stringMap),
        annotations: maybe(stringMap),
      }),
    ),
    status: maybe(
      z.looseObject({
        phase: maybe(z.string()),
        hostIP: maybe(z.string()),
        podIP: maybe(z.string()),
        qosClass: maybe(z.string()),
        containerStatuses: maybe(
          z.array(
            z.looseObject({
              name: maybe(z.string()),
              image: maybe(z.string()),
              state: maybe(z.looseObject({ running: maybe(z.looseObject({ startedAt: maybe(z.string()) })) })),
            }),
          ),
        ),
      }),
    ),
    spec: maybe(
      z.looseObject({
        nodeName: maybe(z.string()),
        containers: maybe(
          z.array(
            z.looseObject({
              name: maybe(z.string()),
              resources: maybe(z.looseObject({ limits: maybe(stringMap), requests: maybe(stringMap) })),
              env: maybe(z.array(anyMap)),
            }),
          ),
        ),
        volumes: maybe(z.array(anyMap)),
        nodeSelector: maybe(stringMap),
        tolerations: maybe(z.array(anyMap)),
        affinity: maybe(anyMap),
      }),
    ),
  })
  .meta({ title: "TrainingPod" });
export type Pod = z.output<typeof pod>;

/** One replica type of a training job (Worker, PS, Master, …) with its resources. */
export const trainingReplicaSpec = z.looseObject({
  replica_type: requiredString,
  replicas: z.int().min(1).default(1),
  specs: z.string().optional(),
  rg_id: z.string().optional(),
  custom_cpu: z.int().min(0).optional(),
  custom_memory: z.int().min(0).optional(),
  custom_gpu: z.int().min(0).optional(),
  custom_gpu_name: z.string().optional(),
});

export const createTrainingJobRequest = z
  .looseObject({
    charge_mode: chargeMode,
    duration: z.int(),
    name: requiredString.max(128),
    endpoint: pathSegment,
    command: z.string().optional(),
    image: requiredString,
    image_type: imageType,
    replica_specs: z.array(trainingReplicaSpec).min(1),
    restart_policy: z.string().optional(),
    backoff_limit: z.int().min(0).optional(),
    ttl_seconds_after_finished: z.int().min(0).optional(),
    active_deadline_seconds: z.int().min(0).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.charge_mode === "elastic" && typeof body.duration === "number" && body.duration !== 3600) {
      ctx.addIssue({ code: "custom", path: ["duration"], message: "must be 3600 when charge_mode is elastic" });
    }
  }, reportAlways);
export type CreateTrainingJobRequest = z.input<typeof createTrainingJobRequest>;

/** A training job as listed (fields not specified; these are the ones the platform's tools read). */
export const trainingJob = z.looseObject({
  name: z.string(),
  uuid: maybe(z.string()),
  endpoint: maybe(z.string()),
  status: maybe(z.string()),
  namespace: maybe(z.string()),
  image: maybe(z.string()),
  created_at: maybe(z.string()),
});
export type TrainingJob = z.output<typeof trainingJob>;
