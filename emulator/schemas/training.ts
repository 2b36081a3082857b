/** Request schemas of training jobs: platform-api A4.1 and platform-api B1. */
import { z } from "zod";
import { chargeMode, checkDuration, dateTime, imageType, nonEmpty, paging, reportAlways } from "./common";
import { replicaResourceFields } from "./notebook";

/** One replica type of a job (Worker, PS, Master, …) with its count and the custom_* resource fields. */
const trainingReplicaSpec = z.strictObject({ ...replicaResourceFields, replica_type: nonEmpty });

/** POST /trains/namespaces/{namespace}/create (platform-api B1). */
export const createTrainingJobBody = z
  .strictObject({
    charge_mode: chargeMode,
    duration: z.int(),
    name: nonEmpty,
    endpoint: nonEmpty,
    command: z.string().optional(),
    image: nonEmpty,
    image_type: imageType,
    replica_specs: z.array(trainingReplicaSpec).min(1, "must hold at least one replica type"),
    restart_policy: z.string().optional(),
    backoff_limit: z.int().min(0).optional(),
    ttl_seconds_after_finished: z.int().min(0).optional(),
    active_deadline_seconds: z.int().min(0).optional(),
  })
  // The spec's duration rule is written for notebooks; only its elastic half is applied to jobs.
  .superRefine((body, ctx) => checkDuration(body, ctx, false), reportAlways);

/** GET /trains/namespaces/{namespace}/trains: the notes' filters and the operator SDK's (name, image_name, reverse, order_by, status, endpoints). */
export const listTrainingJobsQuery = z.object({
  ...paging,
  owner: z.string().optional(),
  user_id: z.string().optional(),
  start_at: dateTime.optional(),
  end_at: dateTime.optional(),
  name: z.string().optional(),
  image_name: z.string().optional(),
  reverse: z.boolean().optional(),
  order_by: z.string().optional(),
  status: z.array(z.string()).optional(),
  endpoints: z.array(z.string()).optional(),
});
