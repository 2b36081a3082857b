/**
 * Reading an object to import, as the engine's ImportStep does
 * (pkg/resource/deploy/step.go, ImportStep.Apply, pulumi v3.259.0): Read the
 * id with no recorded properties or inputs; an empty answer means the object
 * does not exist, an answer without inputs a provider that cannot import.
 */
import type { PluginProcess } from "./plugin-process";

type Props = Record<string, unknown>;
type ReadResponse = InstanceType<PluginProcess["proto"]["ReadResponse"]>;

/** What the import records of the object `id`: its id as read, and its inputs and outputs. */
export async function readForImport(p: PluginProcess, urn: string, id: string): Promise<{ id: string; inputs: Props; outputs: Props }> {
  const request = new p.proto.ReadRequest().setUrn(urn).setId(id).setProperties(p.grpc.toStruct({})).setInputs(p.grpc.toStruct({}));
  const response = await p.call<ReadResponse>("read", request);
  if (response.getId() === "" && !response.hasProperties()) throw new Error(`resource '${id}' does not exist`);
  if (!response.hasInputs())
    throw new Error(`provider does not support importing resources; please try updating the '${urn.split("::")[2]!.split(":")[0]}' plugin`);
  return { id: response.getId() || id, inputs: p.grpc.toJson(response.getInputs()), outputs: p.grpc.toJson(response.getProperties()) };
}
