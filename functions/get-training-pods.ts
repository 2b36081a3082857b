/** getTrainingPods: the pods of a training job that has not terminated (platform-api A4.1). */
import { z } from "zod";
import { toCamel } from "../client/case";
import * as wire from "../client/wire";
import { withoutEnvValues } from "../provider/secrets";
import { checkedArgs, dataSourceFunction, namespaceOf } from "./function";

export const getTrainingPods = dataSourceFunction({
  name: "getTrainingPods",
  secretResults: [],
  example: 'const { pods } = await aicp.getTrainingPods({ endpoint: "tfjobs", trainName: "resnet-50" });',
  declaration: {
    doc:
      "Reads the pods of a training job that has not terminated. Containers' env values are left out (they often hold tokens, and a function's " +
      "result is not secret); their names stay.",
    args: {
      namespace: namespaceOf("job"),
      endpoint: { schema: z.string(), required: true, doc: "Job type, e.g. `tfjobs` or `pytorchjobs`." },
      trainName: { schema: z.string(), required: true, doc: "Name of the training job; non-ASCII names are fine." },
    },
    results: { pods: { schema: z.array(wire.pod), required: true, doc: "Kubernetes pods of the job (platform-api A2.1)." } },
  },
  async run(context, args) {
    const namespace = args.namespace ?? context.defaultNamespace();
    const path = checkedArgs("getTrainingPods", wire.trainingPodsPath, { namespace, endpoint: args.endpoint, train_name: args.trainName });
    const pods = await context.client.listTrainingPods(path);
    return { pods: pods.map((p) => toCamel(wire.pod, withoutEnvValuesOfPod(p))) };
  },
});

/** The pod with its containers' env values left out (they often hold tokens, and a function's result is not secret); names stay. */
function withoutEnvValuesOfPod(pod: wire.Pod): wire.Pod {
  const spec = pod.spec as Record<string, unknown> | null | undefined;
  if (!spec || typeof spec !== "object") return pod;
  const containersOf = (list: unknown) =>
    Array.isArray(list) ? list.map((c) => (c && typeof c === "object" ? { ...c, env: withoutEnvValues((c as { env?: unknown }).env) } : c)) : list;
  return { ...pod, spec: { ...spec, containers: containersOf(spec.containers), initContainers: containersOf(spec.initContainers) } } as wire.Pod;
}
