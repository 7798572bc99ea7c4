import { listProjects, signedInProject } from '../api.js';
import { navigate, projectHref } from '../router.js';
import { useLoad } from '../use-load.js';

/**
 * The project the panel shows: a list of the server's projects when the key signed in with may list them (the
 * server's admin key), else the project's id. The list is read again whenever it is focused, since projects come and
 * go while the panel is open (tests create them); choosing one opens the same page in it.
 */
export function ProjectSwitcher({ current, page }: { current: string; page: string }) {
  const projects = useLoad(listProjects, []);
  const list = projects.data;
  if (!list) {
    return (
      <span class="project" title="authentication id">
        {current}
      </span>
    );
  }
  const choose = (id: string) => navigate(projectHref(id === signedInProject() ? undefined : id, page));
  return (
    <label class="project">
      <span class="project-label">Project</span>{' '}
      <select value={current} onFocus={projects.reload} onChange={(e) => choose(e.currentTarget.value)}>
        {list.map(({ id }) => (
          <option key={id} value={id}>
            {id}
          </option>
        ))}
      </select>
    </label>
  );
}
