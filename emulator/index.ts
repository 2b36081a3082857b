/**
 * A local stand-in of the AICP (CoresHub) platform for tests and the demo,
 * written from the platform's documents: every operation of its route table,
 * the signature check, notebook lifecycles over time, dialect switches for
 * what is unknown, fault injection, misbehaviour (lag, omissions, shifting
 * pages, echoed requests) and optional persistence.
 */
export type { AuthVariant, Dialect, Emulator, EmulatorOptions, FaultSpec, RequestLogEntry, SeedNotebooks } from "./types";
export { DEFAULT_DIALECT, DEFAULT_ZONES } from "./dialect";
export { OPERATION_NAMES, ROUTES, type OperationName } from "./routes";
export { startEmulator } from "./server";
export { EmulatorClock } from "./clock";
export type { MisbehaviourSpec } from "./misbehaviour";
