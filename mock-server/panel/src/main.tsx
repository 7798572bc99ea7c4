import { render } from 'preact';
import { App } from './app.js';
import { pages } from './pages/index.js';
import { currentRoute, interceptLinks } from './router.js';
import { applyTheme, savedTheme } from './theme.js';
import './styles.css';

applyTheme(savedTheme());
interceptLinks();
// The URL's page starts loading beside the sign-in check, not after it (the layout imports it again, from the cache);
// a failure shows there.
void pages
  .find((page) => page.name === currentRoute().page)
  ?.load()
  .catch(() => undefined);
render(<App />, document.getElementById('app')!);
