import type { FunctionComponent } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { resumeSession, signOut, switchProject, useConfig } from './api.js';
import { pageCommands, type Command } from './commands.js';
import { CommandPalette } from './components/command-palette.js';
import { ProjectSwitcher } from './components/project-switcher.js';
import { ThemePicker } from './components/theme-picker.js';
import { pages, type PageEntry } from './pages/index.js';
import type { PageProps } from './pages/page-props.js';
import { href, navigate, useRoute } from './router.js';
import { SignIn } from './sign-in.js';
import { THEMES, applyTheme } from './theme.js';
import { forgetUsernames } from './usernames.js';

/** The panel: the sign-in form until the master key is given, then the layout with the page of the URL. */
export function App() {
  const config = useConfig();
  const [resuming, setResuming] = useState(true);
  useEffect(() => void resumeSession().finally(() => setResuming(false)), []);
  if (resuming) return null;
  return config ? <Layout project={config.authenticationId} /> : <SignIn />;
}

/** The layout's own commands: every page, the themes, signing out. */
const layoutCommands = (): Command[] => [
  ...pages.map((page) => ({ title: `Go to ${page.title}`, run: () => navigate(href(page.name)) })),
  ...THEMES.map((theme) => ({ title: `Theme: ${theme}`, run: () => applyTheme(theme) })),
  { title: 'Sign out', run: signOut },
];

const isEditable = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

function Layout({ project }: { project: string }) {
  const route = useRoute();
  const entry = pages.find((p) => p.name === route.page);
  const opened = useOpenedProject(route.project);
  const [menuOpen, setMenuOpen] = useState(false);
  const [palette, setPalette] = useState(false);
  useEffect(() => {
    if (!route.page) navigate(href(pages[0]!.name), { replace: true });
  }, [route.page]);
  useEffect(() => {
    document.title = `${entry?.title ?? 'Not found'} · basekit panel`;
  }, [entry]);
  // A link followed from the folded menu closes it.
  useEffect(() => setMenuOpen(false), [route]);
  useShortcuts(
    () => setPalette(true),
    () => setMenuOpen(false),
  );
  return (
    <div class="layout">
      <a class="skip" href="#main">
        Skip to the page
      </a>
      <header class="top">
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="side-nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <span class="brand">basekit panel</span>
        <ProjectSwitcher current={project} page={entry?.name ?? pages[0]!.name} />
        <button
          type="button"
          class="palette-button"
          title="Pages and actions (Ctrl+K or ⌘K); / searches the page"
          aria-keyshortcuts="Control+K Meta+K"
          onClick={() => setPalette(true)}
        >
          Commands
        </button>
        <button type="button" class="sign-out" onClick={signOut}>
          Sign out
        </button>
      </header>
      {menuOpen && (
        <button
          type="button"
          class="backdrop"
          tabIndex={-1}
          aria-label="Close the menu"
          onClick={() => setMenuOpen(false)}
        />
      )}
      <nav id="side-nav" class={menuOpen ? 'side open' : 'side'} aria-label="Pages">
        <ul>
          {pages.map((p) => (
            <li key={p.name}>
              <a href={href(p.name)} aria-current={p === entry ? 'page' : undefined}>
                {p.title}
              </a>
            </li>
          ))}
        </ul>
        <ThemePicker />
      </nav>
      <main id="main">
        {!opened.ready ? (
          <p role="status">
            {opened.error
              ? `The project “${route.project}” could not be opened: ${(opened.error as Error).message}`
              : 'Opening the project…'}
          </p>
        ) : entry ? (
          // Keyed by project too: a page of another project starts afresh.
          <PageView key={`${route.project ?? ''}/${entry.name}`} entry={entry} params={route.params} />
        ) : (
          route.page && <NotFound page={route.page} />
        )}
      </main>
      {palette && (
        <CommandPalette commands={[...pageCommands(), ...layoutCommands()]} onClose={() => setPalette(false)} />
      )}
    </div>
  );
}

/**
 * The keyboard shortcuts: Ctrl+K or ⌘K opens the command palette, `/` goes to the page's search field (the palette
 * when the page has none), Escape folds the menu away.
 */
function useShortcuts(openPalette: () => void, closeMenu: () => void): void {
  // Heard from the task that shows the layout, not after the next paint: a Ctrl+K pressed as soon as the menu shows
  // opens the palette instead of being lost.
  useLayoutEffect(() => {
    const keyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        openPalette();
      } else if (event.key === '/' && !event.ctrlKey && !event.metaKey && !isEditable(event.target)) {
        event.preventDefault();
        const search = document.querySelector<HTMLInputElement>('main input[type=search]');
        if (search) search.focus();
        else openPalette();
      } else if (event.key === 'Escape') closeMenu();
    };
    document.addEventListener('keydown', keyDown);
    return () => document.removeEventListener('keydown', keyDown);
  }, []);
}

/**
 * Makes the URL's project (undefined: the one signed in to) the one every call goes to; `ready` once it is, `error`
 * when it cannot be (an unknown project, a key that may not list projects).
 */
function useOpenedProject(project: string | undefined): { ready: boolean; error: unknown } {
  const [opened, setOpened] = useState<{ project: string | undefined; error?: unknown }>({ project: undefined });
  useEffect(() => {
    if (project === opened.project) return;
    let stale = false;
    switchProject(project).then(
      () => !stale && setOpened({ project }),
      (error: unknown) => !stale && setOpened({ project: opened.project, error }),
    );
    return () => {
      stale = true;
    };
  }, [project]);
  return { ready: opened.project === project, error: opened.error };
}

const loaded = new Map<string, FunctionComponent<PageProps>>();

/** Mounted once per page (keyed by name): the page's heading (focused on each page change, so screen readers and keyboards start there) and its module. */
function PageView({ entry, params }: { entry: PageEntry; params: string[] }) {
  const [Page, setPage] = useState(() => loaded.get(entry.name));
  const [error, setError] = useState<unknown>();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    forgetUsernames();
    if (Page) return;
    entry.load().then(
      (module) => {
        loaded.set(entry.name, module.default);
        setPage(() => module.default);
      },
      (e: unknown) => setError(e),
    );
  }, []);
  return (
    <>
      <h1 ref={heading} tabIndex={-1}>
        {entry.title}
      </h1>
      {error ? (
        <p role="alert">The page could not be loaded: {String(error)}</p>
      ) : Page ? (
        <Page params={params} />
      ) : (
        <p aria-busy="true">Loading…</p>
      )}
    </>
  );
}

function NotFound({ page }: { page: string }) {
  return (
    <>
      <h1>No page “{page}”</h1>
      <p>
        Go to the <a href={href(pages[0]!.name)}>{pages[0]!.title}</a> page.
      </p>
    </>
  );
}
