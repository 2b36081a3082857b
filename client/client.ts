/**
 * The AICP API client: one method per operation, each validating its request
 * with the wire schema before anything is sent and parsing the answer with the
 * response schema. Requests and results are in the wire's snake_case; the
 * provider and SDK convert at their edge.
 */
import type { z } from "zod";
import * as wire from "./wire";
import { AicpError } from "./errors";
import { malformed, oneOrMany, parseList, parseOne, routeError, validate } from "./parse";
import { collectAll, findInPages, pageSizeOf, type Page, type PagingOptions } from "./paging";
import { PlatformReader } from "./platform-reader";
import { zoneFromEcho } from "./times";

export type { ClientOptions, DialectKnowledge, ListOperation, Request } from "./platform-reader";

/**
 * How a resource group's delete ended: accepted by the platform; answered 404
 * for a group no lookup finds; or answered 404 in the platform's envelope for
 * a group still listed, with the error that names both readings of that.
 */
export type GroupDeleteOutcome = { readonly answer: "accepted" | "absent" } | { readonly answer: "listed"; readonly error: AicpError };

export class AicpClient extends PlatformReader {
  // ---- the five operations of the spec ----

  /** Pods of a training job that has not terminated (platform-api A4.1). */
  async listTrainingPods(path: wire.TrainingPodsPath): Promise<wire.Pod[]> {
    const p = validate("listTrainingPods", wire.trainingPodsPath, path);
    const data = await this.send("listTrainingPods", { pathParams: p, idempotent: true });
    return parseList("listTrainingPods", wire.pod, data);
  }

  /** Creates a notebook; the platform answers with it in state Pending (platform-api A4.2). */
  async createNotebook(body: wire.CreateNotebookRequest): Promise<wire.Notebook> {
    const valid = validate("createNotebook", wire.createNotebookRequest, body);
    const sentAt = Date.now();
    let serverDate: number | undefined;
    const data = await this.send("createNotebook", {
      pathParams: { namespace: valid.namespace },
      input: valid,
      idempotent: false,
      onServerDate: (ms) => (serverDate = ms),
    });
    const answeredAt = Date.now();
    // A success whose data cannot be read still created the notebook.
    const created = parseList("createNotebook", wire.notebook, oneOrMany(data), true)[0];
    if (!created) throw malformed("createNotebook", "an empty data array instead of the new notebook", true);
    // The platform wrote created_at just now: its zone shows in a bare value. The
    // answer's Date header gives "now" on the platform's own clock, so a skewed
    // local clock cannot mislead; without it, the local clock with two minutes of slack.
    if (typeof created.created_at === "string") {
      const echo =
        serverDate === undefined
          ? zoneFromEcho(created.created_at, sentAt, answeredAt)
          : zoneFromEcho(created.created_at, serverDate - (answeredAt - sentAt) - 1000, serverDate + 1000, 5000);
      this.timeZone.learn(echo);
    }
    return created;
  }

  /** Creates a resource group (platform-api A4.3). */
  async createResourceGroup(body: wire.CreateResourceGroupRequest): Promise<wire.ResourceGroup> {
    const data = await this.send("createResourceGroup", { schema: wire.createResourceGroupRequest, input: body, idempotent: false });
    const result = wire.resourceGroup.safeParse(data);
    if (!result.success) throw malformed("createResourceGroup", "a resource group it could not read", true);
    return result.data;
  }

  /** Disk metrics of a notebook or job that has not terminated (platform-api A4.4). */
  async getNotebookDiskMetrics(query: wire.DiskMetricsQuery): Promise<wire.Metric[]> {
    const q = validate("getNotebookDiskMetrics", wire.diskMetricsQuery, query);
    const data = await this.send("getNotebookDiskMetrics", {
      pathParams: { namespace: q.namespace },
      input: q.uuid === undefined ? {} : { uuid: q.uuid },
      asQuery: true,
      idempotent: true,
    });
    return parseList("getNotebookDiskMetrics", wire.metric, data);
  }

  /** One page of resource templates (platform-api A4.5). */
  async listTemplates(query: wire.ListTemplatesQuery = {}): Promise<Page<wire.Template>> {
    return this.page("listTemplates", wire.listTemplatesQuery, query, wire.template);
  }

  /** Every resource template matching the filters, paging concurrently. */
  async listAllTemplates(query: Omit<wire.ListTemplatesQuery, "offset" | "limit"> = {}, paging?: PagingOptions): Promise<wire.Template[]> {
    return collectAll(
      (offset, limit) => this.listTemplates({ ...query, offset, limit }),
      { ...this.paging, ...paging },
      (t) => String(t.tmp_id ?? JSON.stringify(t)),
    );
  }

  // ---- documented extra operations (platform-api B1) ----

  async listNotebooks(namespace: string, query: wire.ListNotebooksQuery = {}): Promise<Page<wire.Notebook>> {
    return this.page("listNotebooks", wire.listNotebooksQuery, query, wire.notebook, { namespace });
  }

  async listAllNotebooks(namespace: string, query: Omit<wire.ListNotebooksQuery, "offset" | "limit"> = {}): Promise<wire.Notebook[]> {
    return collectAll(
      (offset, limit) => this.listNotebooks(namespace, { ...query, offset, limit }),
      this.paging,
      (n) => n.uuid,
    );
  }

  /**
   * Every notebook of the namespace, for a reader to whom a notebook the walk
   * leaves out costs a lookup of its own, never a wrong answer
   * (provider/notebook/listing.ts): it ends where the stated total says.
   * `firstPage`, when given, is {@link firstNotebookPage}'s answer, taken as
   * the walk's first page instead of asking again; `name`, when given, is
   * the list's name filter (a partial match). `whole` says the answer cannot
   * have lost a notebook: a walk of the filtered list whose first page was
   * shorter than asked for and held all the walk shows, one answer of the
   * whole list. Pages asked one after another can lose one that was listed
   * all along, when another writer removes and adds between them, whatever
   * totals they state. `pages`: how many pages it read.
   */
  async walkNotebooks(
    namespace: string,
    { firstPage, name }: { firstPage?: Page<wire.Notebook>; name?: string } = {},
  ): Promise<{ notebooks: wire.Notebook[]; whole: boolean; pages: number }> {
    let first = name === undefined ? firstPage : undefined;
    const pages: Array<Page<wire.Notebook>> = [];
    const notebooks = await collectAll(
      async (offset, limit) => {
        const kept = offset === 0 ? first : undefined;
        first = undefined;
        const page = kept ?? (await this.listNotebooks(namespace, name === undefined ? { offset, limit } : { name, offset, limit }));
        pages.push(page);
        return page;
      },
      { ...this.paging, endAtTotal: true },
      (n) => n.uuid,
    );
    const firstItems = pages[0]?.items ?? [];
    const oneAnswer = name !== undefined && this.fitsOneNotebookPage(firstItems) && notebooks.length === firstItems.length;
    return { notebooks, whole: oneAnswer, pages: pages.length };
  }

  /** Whether these notebooks (a walk's, or its first page's) are fewer than a page of {@link walkNotebooks} holds: the list may be one answer. */
  fitsOneNotebookPage(notebooks: readonly wire.Notebook[]): boolean {
    return notebooks.length < pageSizeOf(this.paging);
  }

  /** The first page of {@link walkNotebooks}, as it would ask for it. */
  async firstNotebookPage(namespace: string): Promise<Page<wire.Notebook>> {
    return this.listNotebooks(namespace, { offset: 0, limit: pageSizeOf(this.paging) });
  }

  /** Finds a notebook by uuid, paging through the list; undefined when it does not exist. */
  async findNotebook(namespace: string, uuid: string): Promise<wire.Notebook | undefined> {
    return findInPages(
      (offset, limit) => this.listNotebooks(namespace, { offset, limit }),
      (n) => n.uuid === uuid,
      this.paging,
      (n) => n.uuid,
    );
  }

  /** Notebooks whose name is exactly `name` (the list filter is a partial match). */
  async findNotebooksByName(namespace: string, name: string): Promise<wire.Notebook[]> {
    const candidates = await this.listAllNotebooks(namespace, { name });
    return candidates.filter((n) => n.name === name);
  }

  /**
   * The servers of one notebook with their passwords (platform-api B1,
   * notebook access info): every service the docs list unless `services` says
   * which. One request, where finding the notebook in the list takes a walk.
   */
  async getNotebookServers(query: wire.NotebookServersQuery): Promise<wire.ServerInfo[]> {
    const { namespace, uuid, services = [...wire.notebookServices] } = validate("getNotebookServers", wire.notebookServersQuery, query);
    const data = await this.send("getNotebookServers", { pathParams: { namespace, uuid }, input: { services }, asQuery: true, idempotent: true });
    return parseList("getNotebookServers", wire.serverInfo, data);
  }

  async stopNotebooks(namespace: string, uuids: string[], saveImage = false): Promise<void> {
    await this.send("stopNotebooks", {
      pathParams: { namespace },
      schema: wire.stopNotebooksRequest,
      input: { uuids, save_image: saveImage },
      idempotent: true,
    });
  }

  async startNotebooks(namespace: string, body: z.input<typeof wire.startNotebooksRequest>): Promise<void> {
    await this.send("startNotebooks", { pathParams: { namespace }, schema: wire.startNotebooksRequest, input: body, idempotent: true });
  }

  async setStopTime(namespace: string, uuid: string, stopTime: string): Promise<void> {
    await this.send("setStopTime", { pathParams: { namespace }, schema: wire.setStopTimeRequest, input: { uuid, stop_time: stopTime }, idempotent: true });
  }

  async setDeleteTime(namespace: string, uuid: string, autoDeleteTime: string): Promise<void> {
    await this.send("setDeleteTime", {
      pathParams: { namespace },
      schema: wire.setDeleteTimeRequest,
      input: { uuid, auto_delete_time: autoDeleteTime },
      idempotent: true,
    });
  }

  async changeImage(namespace: string, body: z.input<typeof wire.changeImageRequest>): Promise<void> {
    await this.send("changeImage", { pathParams: { namespace }, schema: wire.changeImageRequest, input: body, idempotent: true });
  }

  async updateResourceGroup(body: wire.UpdateResourceGroupRequest): Promise<void> {
    await this.send("updateResourceGroup", { schema: wire.updateResourceGroupRequest, input: body, idempotent: true });
  }

  /**
   * A resource group by id (assumed route); undefined when it does not exist.
   * A 404 from an undocumented route may mean "no such route" as well as "no
   * such group", so "gone" is only believed when the list confirms it.
   */
  async getResourceGroup(rgId: string): Promise<wire.ResourceGroup | undefined> {
    try {
      const data = await this.send("getResourceGroup", { pathParams: { rg_id: rgId }, idempotent: true });
      return parseOne("getResourceGroup", wire.resourceGroup, data);
    } catch (error) {
      if (!(error instanceof AicpError && error.isNotFound)) throw error;
      try {
        return await findInPages(
          (offset, limit) => this.listResourceGroups({ offset, limit }),
          (g) => g.rg_id === rgId,
          this.paging,
          (g) => g.rg_id,
        );
      } catch (confirmation) {
        throw routeError("getResourceGroup", this.routes.getResourceGroup.source, error, confirmation);
      }
    }
  }

  async listResourceGroups(query: z.input<typeof wire.listResourceGroupsQuery> = {}): Promise<Page<wire.ResourceGroup>> {
    return this.page("listResourceGroups", wire.listResourceGroupsQuery, query, wire.resourceGroup);
  }

  /**
   * Deletes a resource group (assumed route). A group that is already gone is
   * not an error, but a 404 is only taken as "gone" once a read confirms it:
   * otherwise a wrong route would let Pulumi forget a group that still exists.
   * A 404 for a group still listed is an AICP_ROUTE error that also names the
   * other reading, a delete still under way (see tryDeleteResourceGroup).
   */
  async deleteResourceGroup(rgId: string): Promise<void> {
    const outcome = await this.tryDeleteResourceGroup(rgId);
    if (outcome.answer === "listed") throw outcome.error;
  }

  /**
   * Deletes a resource group and says how it ended (see GroupDeleteOutcome).
   * A 404 in the platform's envelope for a group still listed is what a
   * platform shows while an earlier accepted delete finishes, and what a wrong
   * route shows: it comes back as `listed`, for the caller to wait for the
   * group to go. A 404 that is not the platform's envelope, for a group still
   * listed, is a route the platform does not serve: an AICP_ROUTE error.
   */
  async tryDeleteResourceGroup(rgId: string): Promise<GroupDeleteOutcome> {
    try {
      await this.send("deleteResourceGroup", { pathParams: { rg_id: rgId }, idempotent: true });
      return { answer: "accepted" };
    } catch (error) {
      if (!(error instanceof AicpError && error.isNotFound)) throw error;
      if ((await this.getResourceGroup(rgId)) === undefined) return { answer: "absent" };
      const route = routeError("deleteResourceGroup", this.routes.deleteResourceGroup.source, error, undefined);
      // Said in both cases: a gateway's 404 may also come while the platform is still removing the group.
      route.message +=
        " Or the platform is still finishing an earlier delete of this group (some platforms list a deleted group for a while): " +
        "then it goes by itself, and `pulumi destroy` run again later confirms it.";
      if (error.retCode === undefined) throw route;
      return { answer: "listed", error: route };
    }
  }
}
