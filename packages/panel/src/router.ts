// A router of our own, small enough to read at once: panel URLs are /__admin/panel/<page>/<selection...>?<filters>,
// kept in the history API so every page and selection can be shared as a link and is restored on load. A project of
// the server other than the one signed in to comes first: /__admin/panel/@<projectId>/<page>/...
import { useLayoutEffect, useState } from 'preact/hooks';

/** Where the server serves the panel, with its trailing slash (Vite's `base`). */
const PANEL_BASE = import.meta.env.BASE_URL;

/** The panel's place: the project (when not the one signed in to), the page's name, the URL segments after it (decoded), and the query string. */
export interface Route {
  project: string | undefined;
  page: string;
  params: string[];
  query: URLSearchParams;
}

const CHANGE = 'panel:navigate';

/** The route of the address bar now. */
function currentRoute(): Route {
  const path = location.pathname.startsWith(PANEL_BASE) ? location.pathname.slice(PANEL_BASE.length) : '';
  const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
  const project = segments[0]?.startsWith('@') ? segments.shift()!.slice(1) : undefined;
  const [page = '', ...params] = segments;
  return { project, page, params, query: new URLSearchParams(location.search) };
}

/**
 * The panel URL of a page and its selection in the project of the current URL, each segment encoded (a file path or
 * an id may hold any character).
 * @example href('database', 'GameScore', id) // "/__admin/panel/database/GameScore/<id>"
 */
export function href(page: string, ...params: string[]): string {
  return projectHref(currentRoute().project, page, ...params);
}

/** The panel URL of a page and its selection in `project` (undefined: the project signed in to). */
export function projectHref(project: string | undefined, page: string, ...params: string[]): string {
  const prefix = project === undefined ? '' : `@${encodeURIComponent(project)}/`;
  return PANEL_BASE + prefix + [page, ...params].map(encodeURIComponent).join('/');
}

/** Goes to a panel URL (from `href`, with a query string if any); `replace` for filter changes that need no history entry. */
export function navigate(to: string, { replace = false } = {}): void {
  if (to === location.pathname + location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', to);
  dispatchEvent(new Event(CHANGE));
  if (!replace) scrollTo(0, 0);
}

/** Replaces the current URL's query string (filters, paging) with `values`; empty values are left out. */
export function setQuery(values: Record<string, string | number | undefined>): void {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(values))
    if (value !== undefined && value !== '') query.set(key, String(value));
  const search = query.size ? `?${query}` : '';
  navigate(location.pathname + search, { replace: true });
}

/** The current route, re-rendering on every navigation (links, back and forward buttons, `navigate`). */
export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  // Listening from the task that renders, not after the next paint: a link followed in between is not missed.
  useLayoutEffect(() => {
    const update = () => setRoute(currentRoute());
    addEventListener(CHANGE, update);
    addEventListener('popstate', update);
    return () => {
      removeEventListener(CHANGE, update);
      removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/**
 * Plain `<a href>` links to panel URLs navigate without reloading the page: pages write ordinary links (which open
 * in a new tab, copy and read out as links) and need no link component. Modified clicks keep the browser's meaning.
 */
export function interceptLinks(): void {
  document.addEventListener('click', (event) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    const link = (event.target as Element | null)?.closest?.('a');
    if (!link || link.target || link.hasAttribute('download')) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith(PANEL_BASE)) return;
    // A link within the page (the skip link's #main) is the browser's to follow.
    if (url.hash && url.pathname === location.pathname && url.search === location.search) return;
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
}
