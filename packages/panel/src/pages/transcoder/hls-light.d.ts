// hls.js ships no types for its light build (no alternate audio, subtitles, DRM or CMCD): the same API as the full one.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
}
