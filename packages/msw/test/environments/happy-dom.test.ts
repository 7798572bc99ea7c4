// @vitest-environment happy-dom
import { frontEndScenario } from './scenario.js';

frontEndScenario('happy-dom');
