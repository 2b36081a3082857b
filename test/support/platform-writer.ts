/**
 * Platform operations only the tests and the bench use, to shape what the
 * provider reads (platform-api B1): adding resource templates to the
 * catalogue, and making training jobs whose pods the pods operation returns.
 * Kept out of the shipped client.
 */
import { z } from "zod";
import { AicpClient } from "../../client/client";
import { oneOrMany, parseList, parseOne } from "../../client/parse";
import * as wire from "../../client/wire";

export class PlatformWriter extends AicpClient {
  /** Adds a resource template; returns the new template ids. */
  async createTemplate(body: wire.CreateTemplateRequest): Promise<number[]> {
    const data = await this.send("createTemplate", { schema: wire.createTemplateRequest, input: body, idempotent: false });
    return parseOne("createTemplate", z.looseObject({ tmp_ids: z.array(z.number()) }), data).tmp_ids;
  }

  /** Creates a training job; returns it as the platform answered. */
  async createTrainingJob(namespace: string, body: wire.CreateTrainingJobRequest): Promise<wire.TrainingJob | undefined> {
    const data = await this.send("createTrainingJob", { pathParams: { namespace }, schema: wire.createTrainingJobRequest, input: body, idempotent: false });
    return parseList("createTrainingJob", wire.trainingJob, oneOrMany(data))[0];
  }
}

/** A one-GPU template on the platform's public group, as an operator adds it (the bench adds a thousand). */
export function gpuTemplate(name: string, node: string): wire.CreateTemplateRequest {
  return { name, cpu: 8, memory: 32, gpu: 1, rg_id: "rg-publicgpu001", rg_node_id: node, pod_type: ["instance"] };
}

/** A template of 4 A100 GPUs per replica on the platform's public group (the guardrails' tests count its GPUs). */
export function fourA100Template(node: string, specType: wire.CreateTemplateRequest["spec_type"] = "common"): wire.CreateTemplateRequest {
  return {
    name: "four-a100",
    cpu: 32,
    memory: 128,
    gpu: 4,
    gpu_name: "A100",
    rg_id: "rg-publicgpu001",
    rg_node_id: node,
    pod_type: ["instance"],
    spec_type: specType,
  };
}
