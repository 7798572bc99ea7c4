export { startServer, type StartOptions, type RunningServer } from './server.js';
export {
  createEngine,
  DEFAULT_CONFIG,
  ConfigError,
  type Engine,
  type EngineOptions,
  type Config,
  type ConfigInput,
} from '@basekit/engine';
