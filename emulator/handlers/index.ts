/** The handler of every operation of the emulator's route table. */
import type { OperationName } from "../routes";
import type { Handler } from "./context";
import { getNotebookDiskMetrics } from "./monitoring";
import { changeImage, setDeleteTime, setStopTime, startNotebooks, stopNotebooks } from "./notebook-writes";
import { createNotebook, getNotebookServers, listNotebooks } from "./notebooks";
import { createResourceGroup, deleteResourceGroup, getResourceGroup, listResourceGroups, updateResourceGroup } from "./resource-groups";
import { createTemplate, listTemplates } from "./templates";
import { createTrainingJob, listTrainingJobs, listTrainingPods } from "./training";

export type { Handler, HandlerContext, HandlerResult } from "./context";
export { groupToWire } from "./resource-groups";
export { notebookToWire } from "./notebook-wire";
export { templateToWire } from "./templates";

/** Operation name -> handler; `satisfies` makes a route without a handler a compile error. */
export const handlers = {
  listTrainingPods,
  createNotebook,
  createResourceGroup,
  getNotebookDiskMetrics,
  listTemplates,
  listNotebooks,
  stopNotebooks,
  startNotebooks,
  setStopTime,
  setDeleteTime,
  changeImage,
  getNotebookServers,
  createTemplate,
  updateResourceGroup,
  listTrainingJobs,
  createTrainingJob,
  getResourceGroup,
  listResourceGroups,
  deleteResourceGroup,
} satisfies Record<OperationName, Handler>;
