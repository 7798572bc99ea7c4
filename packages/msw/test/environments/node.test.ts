// @vitest-environment node
import { frontEndScenario } from './scenario.js';

frontEndScenario('node');
