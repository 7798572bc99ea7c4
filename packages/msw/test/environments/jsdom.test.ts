// @vitest-environment jsdom
import { frontEndScenario } from './scenario.js';

frontEndScenario('jsdom');
