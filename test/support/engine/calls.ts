/**
 * The provider protocol's calls as the engine makes them for one resource
 * (stack.ts keeps the records): the request each sends and what the engine
 * takes from the answer.
 */
import type { PluginProcess } from "./plugin-process";
import type { Declared, Props, Recorded } from "./types";
import { plain } from "./values";

type Proto = PluginProcess["proto"];

/** What the engine takes from a Diff: changed or not, the properties named, and how a replacement goes. */
export interface DiffOutcome {
  changed: boolean;
  diffs: string[];
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** A function call through the plugin's Invoke. */
export async function invokeCall(p: PluginProcess, name: string, args: Props): Promise<Props> {
  const response = await p.call<InstanceType<Proto["InvokeResponse"]>>(
    "invoke",
    new p.proto.InvokeRequest().setTok(`aicp:index:${name}`).setArgs(p.grpc.toStruct(args)),
  );
  return plain(p.grpc.toJson(response.getReturn())) as Props;
}

/** Check: the checked inputs, or an error naming each failed property. */
export async function checkCall(p: PluginProcess, urn: string, olds: Props, news: Props): Promise<Props> {
  const response = await p.call<InstanceType<Proto["CheckResponse"]>>(
    "check",
    new p.proto.CheckRequest().setUrn(urn).setOlds(p.grpc.toStruct(olds)).setNews(p.grpc.toStruct(news)),
  );
  const failures = response.getFailuresList();
  if (failures.length > 0) throw new Error(failures.map((f) => engineLine(urn, f.getProperty(), f.getReason())).join("; "));
  return p.grpc.toJson(response.getInputs());
}

/**
 * A check failure as the engine prints it (issueCheckFailures, pkg/resource/deploy/step_generator.go, diag codes 2002
 * and 2003), but for the value the engine adds after a property (`value {…}`: its Go rendering of inputs[property]).
 */
function engineLine(urn: string, property: string, reason: string): string {
  const [, , path = "", name = ""] = urn.split("::");
  const type = path.split("$").pop();
  return property ? `${type} resource '${name}': property ${property} has a problem: ${reason}` : `${type} resource '${name}' has a problem: ${reason}`;
}

export async function diffCall(p: PluginProcess, old: Recorded, news: Props, ignoreChanges: string[]): Promise<DiffOutcome> {
  const { proto, grpc } = p;
  const request = new proto.DiffRequest()
    .setUrn(old.urn)
    .setId(old.id)
    .setOlds(grpc.toStruct(old.outputs))
    .setNews(grpc.toStruct(news))
    .setOldInputs(grpc.toStruct(old.inputs))
    .setIgnorechangesList(ignoreChanges);
  const response = await p.call<InstanceType<Proto["DiffResponse"]>>("diff", request);
  const changes = response.getChanges();
  const diffs = response.getDiffsList();
  const replaces = response.getReplacesList();
  const deleteBeforeReplace = response.getDeletebeforereplace();
  if (changes !== proto.DiffResponse.DiffChanges.DIFF_UNKNOWN)
    return { changed: changes === proto.DiffResponse.DiffChanges.DIFF_SOME, diffs, replaces, deleteBeforeReplace };
  // The engine's own comparison of the recorded inputs with the new ones.
  const keys = [...new Set([...Object.keys(old.inputs), ...Object.keys(news)])].filter((k) => JSON.stringify(old.inputs[k]) !== JSON.stringify(news[k]));
  return { changed: keys.length > 0, diffs: keys, replaces, deleteBeforeReplace };
}

/** Create: the new object's id and outputs; a failure throws ProviderCallError (with initFailed when it made an object). */
export async function createCall(p: PluginProcess, urn: string, inputs: Props, timeoutSeconds: number): Promise<{ id: string; outputs: Props }> {
  const request = new p.proto.CreateRequest().setUrn(urn).setProperties(p.grpc.toStruct(inputs)).setTimeout(timeoutSeconds);
  const response = await p.call<InstanceType<Proto["CreateResponse"]>>("create", request);
  return { id: response.getId(), outputs: p.grpc.toJson(response.getProperties()) };
}

/** Update: the new outputs. */
export async function updateCall(p: PluginProcess, old: Recorded, news: Props, declared: Declared): Promise<Props> {
  const { proto, grpc } = p;
  const request = new proto.UpdateRequest()
    .setUrn(old.urn)
    .setId(old.id)
    .setOlds(grpc.toStruct(old.outputs))
    .setNews(grpc.toStruct(news))
    .setOldInputs(grpc.toStruct(old.inputs))
    .setTimeout(declared.timeouts?.update ?? 0)
    .setIgnorechangesList(declared.ignoreChanges ?? []);
  const response = await p.call<InstanceType<Proto["UpdateResponse"]>>("update", request);
  return grpc.toJson(response.getProperties());
}

export async function deleteCall(p: PluginProcess, r: Recorded): Promise<void> {
  const { proto, grpc } = p;
  await p.call("delete", new proto.DeleteRequest().setUrn(r.urn).setId(r.id).setProperties(grpc.toStruct(r.outputs)).setOldInputs(grpc.toStruct(r.inputs)));
}

/** Read: the id ("" when gone), outputs and inputs the engine records. */
export async function readCall(p: PluginProcess, r: Recorded): Promise<{ id: string; outputs: Props; inputs: Props }> {
  const { proto, grpc } = p;
  const request = new proto.ReadRequest().setUrn(r.urn).setId(r.id).setProperties(grpc.toStruct(r.outputs)).setInputs(grpc.toStruct(r.inputs));
  const response = await p.call<InstanceType<Proto["ReadResponse"]>>("read", request);
  return { id: response.getId(), outputs: grpc.toJson(response.getProperties()), inputs: grpc.toJson(response.getInputs()) };
}
