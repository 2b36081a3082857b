/**
 * A local AICP (CoresHub) platform for tests and the demo: every operation of
 * the provider's route table under /qai/aicp and /aicp, the signature check,
 * notebook lifecycles over time, fault injection and optional persistence.
 */
export type { Emulator, EmulatorOptions, FaultSpec, RequestLogEntry } from "./types";
export { startEmulator } from "./server";
