/** Dotted paths (`owner,owner.team`) as a tree: `owner` -> `team` -> (leaf). */
export type PathTree = Map<string, PathTree>;

export function pathTree(paths: readonly string[]): PathTree {
  const root: PathTree = new Map();
  for (const path of paths) {
    let node = root;
    for (const step of path.split('.')) {
      const next = node.get(step) ?? new Map();
      node.set(step, next);
      node = next;
    }
  }
  return root;
}
