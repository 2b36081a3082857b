/** getTrainingJobs: the training jobs of a namespace (platform-api B1, list training jobs). */
import { z } from "zod";
import { toCamel } from "../client/case";
import type { ListOperation } from "../client/client";
import { dateTime, maybe, paging } from "../client/wire/common";
import { argsOf, dataSourceFunction, namespaceOf, pageOrEvery } from "./function";

/** A time as the list's filters take it (platform-api B1): in the platform's own zone, to the second. */
const platformTime = dateTime.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'must be a time as the platform writes it, "YYYY-MM-DD HH:MM:SS"');

/** A training job as listed. No public source gives the fields; these are the ones the platform's clients read. */
const trainingJob = z
  .looseObject({
    name: maybe(z.string()).describe("Name of the job."),
    uuid: maybe(z.string()).describe("Id of the job, e.g. `tn-…`."),
    endpoint: maybe(z.string()).describe("Job type, e.g. `tfjobs` or `pytorchjobs`."),
    status: maybe(z.string()).describe("Platform state of the job."),
    namespace: maybe(z.string()).describe("Namespace of the job."),
    image: maybe(z.string()).describe("Container image the job runs."),
    created_at: maybe(z.string()).describe("When the job was created; carries the platform's zone when it is configured or learned."),
  })
  .meta({ title: "TrainingJob", description: "A training job as the platform lists it." });

const listTrainingJobs = {
  operation: "listTrainingJobs",
  query: z.strictObject({
    offset: paging.offset.describe("Index of the first job of the one page to read."),
    limit: paging.limit.describe("Jobs in the one page to read, 1 to 100."),
    start_at: platformTime.optional().describe('Jobs created at or after this time, "YYYY-MM-DD HH:MM:SS" in the platform\'s zone.'),
    end_at: platformTime.optional().describe('Jobs created at or before this time, "YYYY-MM-DD HH:MM:SS" in the platform\'s zone.'),
  }),
  item: trainingJob,
  // Without a uuid, two jobs of one name are still two jobs.
  keyOf: (job) => job.uuid ?? JSON.stringify(job),
} satisfies ListOperation<z.ZodObject, typeof trainingJob>;

export const getTrainingJobs = dataSourceFunction({
  name: "getTrainingJobs",
  secretResults: [],
  example: 'const { jobs } = await aicp.getTrainingJobs({ startAt: "2026-11-01 00:00:00" });',
  declaration: {
    doc:
      "Lists the training jobs of a namespace, paging through every result unless `offset` or `limit` asks for one page; `startAt` and " +
      "`endAt` bound when they were created. Without them, the platform's documents do not say how far back the list goes (its own clients " +
      "ask for the last seven days by default).",
    args: { namespace: namespaceOf("jobs"), ...argsOf(listTrainingJobs.query) },
    results: { jobs: { schema: z.array(trainingJob), required: true, doc: "The matching jobs: all of them, or one page when `offset` or `limit` is given." } },
  },
  async run(context, args) {
    const { startAt, endAt, offset, limit } = args;
    const query = { start_at: startAt, end_at: endAt, offset, limit };
    const jobs = await pageOrEvery("getTrainingJobs", context.client, listTrainingJobs, query, { namespace: args.namespace ?? context.defaultNamespace() });
    return { jobs: jobs.map((job) => toCamel(trainingJob, { ...job, created_at: context.client.timeZone.normalise(job.created_at) })) };
  },
});
