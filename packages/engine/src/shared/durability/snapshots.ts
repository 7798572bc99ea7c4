import type { Moment } from '../moment.js';
import type { ProjectImage, Project } from '../project.js';

/**
 * A named snapshot as the admin API lists it.
 *
 * @example
 * const { snapshots }: { snapshots: SnapshotInfo[] } = await (await engine.fetch(new Request('http://local/__admin/snapshots', { headers: masterKeyHeaders }))).json();
 * snapshots.map((snapshot) => `${snapshot.name}, saved ${snapshot.createdAt}, restored ${snapshot.restores} times`);
 */
export interface SnapshotInfo {
  name: string;
  /** When it was saved (ISO 8601, the server clock). */
  createdAt: string;
  /** How many times it was restored since. */
  restores: number;
}

interface Saved {
  info: SnapshotInfo;
  image: ProjectImage;
}

/**
 * The named snapshots of one project (`/__admin/snapshots`): whole images of the project (its config, clock, outbox
 * and every state), kept in memory for the server's run. An image shares with the live state whatever neither
 * changed since (rows, records, file bytes), so saving and restoring cost a copy of the maps that hold them, not of
 * the data. They are the test author's tools, not the project's state: never exported, journaled or reset.
 */
export class NamedSnapshots {
  readonly #byName = new Map<string, Saved>();

  get size(): number {
    return this.#byName.size;
  }

  has(name: string): boolean {
    return this.#byName.has(name);
  }

  /** Keeps the project as it is now under `name` (saved at `moment`), replacing a snapshot of that name. */
  save(name: string, project: Project, moment: Moment): SnapshotInfo {
    const info = { name, createdAt: moment.iso(), restores: 0 };
    this.#byName.set(name, { info, image: project.capture() });
    return info;
  }

  /** Makes the project what it was when `name` was saved; false when there is no such snapshot. */
  async restore(name: string, project: Project): Promise<boolean> {
    const saved = this.#byName.get(name);
    if (!saved) return false;
    saved.info.restores++;
    await project.restore(saved.image);
    return true;
  }

  list(): SnapshotInfo[] {
    return [...this.#byName.values()].map(({ info }) => ({ ...info }));
  }

  delete(name: string): boolean {
    return this.#byName.delete(name);
  }
}

const byProject = new WeakMap<Project, NamedSnapshots>();

/** The named snapshots of a project (none until the first is saved). */
export function snapshotsOf(project: Project): NamedSnapshots {
  let snapshots = byProject.get(project);
  if (!snapshots) byProject.set(project, (snapshots = new NamedSnapshots()));
  return snapshots;
}

/** True when the project keeps a named snapshot, which may still need file bytes the live state let go of. */
export const hasSnapshots = (project: Project): boolean => (byProject.get(project)?.size ?? 0) > 0;
