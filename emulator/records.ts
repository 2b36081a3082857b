/**
 * What the emulator stores. Records keep what the platform would keep; the
 * parts that change with time (notebook status, running time, metrics) are
 * computed when answering, so no timers are needed and a restart loses nothing.
 * Date-time strings are stored in UTC without a zone suffix; answers rewrite
 * them in the dialect's zone (times.ts).
 */

/** A resource group (platform-api A2.3) as stored; `pod_type` is a list here, a string on the wire. */
export interface GroupRecord {
  rg_id: string;
  name: string;
  description: string;
  sku_id: string;
  pod_type: string[];
  customize_enable: number;
  status: string;
  reason: string;
  user_id: string;
  root_user_id: string;
  resource_type: string;
  created_at: string;
  updated_at: string;
  /** Owned by the platform (backs the template catalogue), not by a user. */
  platform?: boolean;
}

/** A resource template (platform-api A2.4) as stored; `resource_group` and `show_users_info` are added on the wire. */
export interface TemplateRecord {
  tmp_id: number;
  name: string;
  cpu: number;
  memory: number;
  gpu: number;
  gpu_memory: number;
  rg_id: string;
  ib: number;
  rg_node_id: string;
  rg_node_name: string;
  pod_type: string[];
  gpu_list: string[];
  gpu_name: string;
  show_user: string[];
  hashrate_allocation: number;
  data_disk_size: number;
  cpu_manufacturer: string;
  cpu_model: string;
  spec_type: string;
  salable: boolean;
  max_applicable_number: number;
  created_at: string;
  /** Part of the built-in catalogue, shown to every configured user. */
  seeded?: boolean;
}

/** A notebook as stored; `status`, `servers`, `running_time`, … are computed from the times. */
export interface NotebookRecord {
  uuid: string;
  namespace: string;
  name: string;
  user_id: string;
  root_user_id: string;
  image: string;
  image_type: string;
  server_type: string;
  charge_mode: string;
  duration: number;
  envs: Array<Record<string, unknown>>;
  stop_time: string | null;
  auto_delete_time: string | null;
  pip: string;
  conda: string;
  apt: string;
  custom_first: string | null;
  custom_second: string | null;
  replica_specs: Record<string, unknown>;
  volume_specs: Array<Record<string, unknown>>;
  created_ms: number;
  updated_ms: number;
  /** When the notebook was created or last started; Running begins at this + the ready delay. */
  started_ms: number;
  stopped: boolean;
  /** Running time accumulated before the last start, in milliseconds. */
  run_ms_before: number;
  password: string;
  /** Why the running container failed (set out of band by the admin API, cleared by a start); absent when it did not. */
  failed_reason?: string | null;
}

/** A training job with its pods (platform-api A2.1), fixed at creation. */
export interface TrainingJobRecord {
  uuid: string;
  name: string;
  namespace: string;
  endpoint: string;
  user_id: string;
  image: string;
  image_type: string;
  command: string;
  charge_mode: string;
  duration: number;
  status: string;
  replica_specs: Array<Record<string, unknown>>;
  created_ms: number;
  pods: Array<Record<string, unknown>>;
}

/** The whole persisted state. */
export interface StateData {
  version: 1;
  nextTemplateId: number;
  /** Ids of replica and volume spec records. */
  nextRecordId: number;
  groups: GroupRecord[];
  templates: TemplateRecord[];
  notebooks: NotebookRecord[];
  jobs: TrainingJobRecord[];
}
