import type { TranscoderCapability } from '@basekit/engine';
import { ffmpegRunner } from './ffmpeg-runner.js';
import { findTools } from './tools.js';

/** The transcoder capability of the Node server: ffmpeg when it is installed, else the reason it cannot run. */
export async function nodeTranscoder(env: NodeJS.ProcessEnv = process.env): Promise<TranscoderCapability> {
  const tools = await findTools(env);
  return typeof tools === 'string'
    ? { unavailable: `video conversion is unavailable: ${tools}` }
    : { runner: ffmpegRunner(tools) };
}
