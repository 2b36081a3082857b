/**
 * A notebook as the platform sends it (platform-api A2.2). Status and the server
 * details follow from the stored times: Pending until the ready delay has
 * passed since creation or the last start, then Running (or Failed when the
 * image cannot be pulled, or the container failed); Stopped once stopped, or
 * once its stop time has come (a stop time is a scheduled stop, platform-api
 * B1).
 */
import type { NotebookRecord } from "../records";
import { formatBare, storedMs, storedToWire } from "../times";
import type { Dialect } from "../types";
import { stableHash, stableIp, stableUuid } from "../util";

/** Port each server type listens on inside the container. */
export const SERVER_PORTS: Record<string, number> = { jupyter: 8888, code_server: 8080, rstudio: 8787 };

/** Images whose name contains this never pull: the notebook ends Failed. */
export const MISSING_IMAGE_MARK = "does-not-exist";

/** The computed lifecycle state of a notebook at `now`. */
export function notebookStatus(nb: NotebookRecord, now: number, readyDelayMs: number): "Pending" | "Running" | "Failed" | "Stopped" {
  if (nb.stopped || scheduledStopAt(nb, now) !== undefined) return "Stopped";
  if (now < nb.started_ms + readyDelayMs) return "Pending";
  return nb.image.includes(MISSING_IMAGE_MARK) || nb.failed_reason ? "Failed" : "Running";
}

/** When the notebook's stop time stopped it: a stop time that came after its last start and has passed. */
export function scheduledStopAt(nb: NotebookRecord, now: number): number | undefined {
  if (!nb.stop_time) return undefined;
  const at = storedMs(nb.stop_time);
  return at > nb.started_ms && at <= now ? at : undefined;
}

/** Milliseconds of running since the last start (up to a scheduled stop), 0 unless it ran. */
export function currentRunMs(nb: NotebookRecord, now: number, readyDelayMs: number): number {
  if (nb.stopped) return 0;
  const end = scheduledStopAt(nb, now) ?? now;
  const failed = nb.image.includes(MISSING_IMAGE_MARK) || nb.failed_reason;
  return failed ? 0 : Math.max(0, end - (nb.started_ms + readyDelayMs));
}

/** The port of a notebook's SSH service, stable per notebook. */
export function sshPort(nb: NotebookRecord): number {
  return 30000 + (stableHash(nb.uuid) % 2000);
}

/** The notebook's main server (platform-api A2.2 `servers` item): its development server. */
export function mainServer(nb: NotebookRecord, running: boolean): Record<string, unknown> {
  return {
    status: running,
    protocol: "http",
    server_name: nb.server_type,
    server_type: nb.server_type,
    url: running ? `/aicp/notebooks/${nb.namespace}/${nb.uuid}/${nb.server_type}/` : "",
    target_port: SERVER_PORTS[nb.server_type] ?? 8888,
    password: running ? nb.password : null,
  };
}

/**
 * The wire form of `nb` at `now`: date-times in the dialect's zone, `envs` as
 * a JSON string when the dialect says so (platform-api B5).
 */
export function notebookToWire(nb: NotebookRecord, now: number, readyDelayMs: number, dialect: Dialect): Record<string, unknown> {
  const status = notebookStatus(nb, now, readyDelayMs);
  const running = status === "Running";
  const zone = dialect.bareTimeZone;
  return {
    user_name: nb.user_id,
    email: `${nb.user_id}@example.com`,
    kuid: stableUuid(`kuid/${nb.user_id}`),
    status,
    reason: status === "Failed" ? (nb.failed_reason ?? `ErrImagePull: image ${nb.image} not found`) : null,
    user_id: nb.user_id,
    root_user_id: nb.root_user_id,
    created_at: formatBare(nb.created_ms, zone),
    updated_at: formatBare(nb.updated_ms, zone),
    namespace: nb.namespace,
    image: nb.image,
    image_type: nb.image_type,
    name: nb.name,
    server_type: nb.server_type,
    envs: dialect.envsAsString ? JSON.stringify(nb.envs) : nb.envs,
    stop_time: storedToWire(nb.stop_time, zone),
    auto_delete_time: storedToWire(nb.auto_delete_time, zone),
    uuid: nb.uuid,
    server: running ? `ssh root@ssh.aicp.emulator -p ${sshPort(nb)}` : null,
    pip: nb.pip,
    conda: nb.conda,
    apt: nb.apt,
    ws_url: `/aicp/notebooks/${nb.namespace}/${nb.uuid}/ws`,
    volume_specs: nb.volume_specs,
    replica_specs: nb.replica_specs,
    servers: [mainServer(nb, running)],
    pod_ips: running ? [stableIp(nb.uuid)] : null,
    running_time: Math.floor((nb.run_ms_before + currentRunMs(nb, now, readyDelayMs)) / 1000),
    charge_mode: nb.charge_mode,
    duration: nb.duration,
    custom_first: nb.custom_first,
    custom_second: nb.custom_second,
  };
}
