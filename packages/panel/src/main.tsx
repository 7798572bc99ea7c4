import { render } from 'preact';
import { App } from './app.js';
import { interceptLinks } from './router.js';
import { applyTheme, savedTheme } from './theme.js';
import './styles.css';

applyTheme(savedTheme());
interceptLinks();
render(<App />, document.getElementById('app')!);
