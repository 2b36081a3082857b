/** The AICP API client: transport, routes, signing, errors, paging and wire schemas. */
export { AicpClient, type ClientOptions } from "./client";
export { AicpError, redact, rememberSecret, type AicpErrorCode } from "./errors";
export { collectAll, findInPages, mapConcurrent, type Page, type PagingOptions } from "./paging";
export { defaultRoutes, resolveRoutes, fillPath, type OperationName, type Route, type RouteTable } from "./routes";
export { Transport, type AttemptEvent, type Credentials, type TransportOptions } from "./transport";
export { parseRetryAfter } from "./answers";
export { toCamel, toSnake, snakeToCamel, camelToSnake, type Camelized } from "./case";
export * as wire from "./wire";
