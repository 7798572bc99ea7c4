import { describe, expect, it } from 'vitest';
import { AREAS } from '../src/areas/index.js';
import { developmentConfig, resolveConfig } from '../src/config.js';
import { defaultCapabilities } from '../src/shared/capabilities.js';
import type { Durability } from '../src/shared/durability/declarations.js';
import { DurableState } from '../src/shared/durability/journal.js';
import { Project, type StateSlice } from '../src/shared/project.js';
import { MemoryJournal } from './support/memory-journal.js';

// A kind of state added by a later area is carried by the export, the import, a reset and the journal's snapshot
// with no code of its own beyond its slice: nothing lists the slices but the areas themselves.

interface Badges {
  earned: Map<string, string[]>;
}

const badges: StateSlice<Badges> = {
  key: 'badges',
  init: () => ({ earned: new Map() }),
  toJSON: (state) => [...state.earned],
  fromJSON: (json) => ({ earned: new Map(json as [string, string[]][]) }),
  count: (state) => ({ players: state.earned.size }),
};

const config = resolveConfig(developmentConfig());
const newProject = () =>
  new Project(config, defaultCapabilities(), [...AREAS.map((area) => area.state), badges as StateSlice<unknown>]);

describe('a kind of state added by a future area', () => {
  it('comes back from an export after a reset, in a fresh project, and from the journal', async () => {
    const project = newProject();
    project.state(badges).earned.set('ann', ['first-blood']);
    const exported = JSON.parse(JSON.stringify(project.exportState()));
    expect(exported.areas.badges).toEqual([['ann', ['first-blood']]]);

    project.reset();
    expect(project.state(badges).earned.size).toBe(0);
    project.importState(exported);
    expect(project.state(badges).earned.get('ann')).toEqual(['first-blood']);
    expect(project.summary().areas['badges']).toEqual({ players: 1 });

    const fresh = newProject();
    fresh.importState(exported);
    expect(JSON.parse(JSON.stringify(fresh.exportState()))).toEqual(exported);

    const journal = new MemoryJournal();
    const handle = () => Promise.resolve(new Response(null, { status: 204 }));
    const declared = (): Durability => ({ changes: 'nothing', bodyLimit: 'maxJsonBodyBytes' });
    await new DurableState({ project, journal, handle, declared }).snapshot();
    const restarted = newProject();
    await new DurableState({ project: restarted, journal, handle, declared }).restore();
    expect(restarted.state(badges).earned.get('ann')).toEqual(['first-blood']);
  });
});
