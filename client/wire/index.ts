/** The AICP wire schemas: the single source of truth for every request and response field. */
export * from "./common";
export * from "./notebook";
export * from "./resource-group";
export * from "./template";
export * from "./training";
export * from "./monitoring";
