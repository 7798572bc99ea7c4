import { useEffect, useRef, useState } from 'preact/hooks';
import { Status } from '../../components/status.js';

/**
 * Plays an HLS master playlist. Where Media Source Extensions exist (Chromium, Firefox) hls.js feeds them; it is
 * imported here only, so it is a chunk of its own, loaded when a video is played. Elsewhere (Safari) the browser
 * plays HLS itself.
 */
export function HlsPlayer({ src, label }: { src: string; label: string }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    const element = video.current!;
    let destroy = () => {};
    let stopped = false;
    setError(undefined);
    if (!('MediaSource' in window || 'ManagedMediaSource' in window)) {
      element.src = src;
      void element.play().catch(() => {}); // a browser that refuses autoplay leaves the controls to the user
      return;
    }
    import('hls.js/light').then(
      ({ default: Hls }) => {
        if (stopped) return;
        const hls = new Hls();
        destroy = () => hls.destroy();
        hls.on(
          Hls.Events.ERROR,
          (_, data) => data.fatal && setError(new Error(`The video could not be played: ${data.details}`)),
        );
        hls.on(Hls.Events.MANIFEST_PARSED, () => void element.play().catch(() => {}));
        hls.loadSource(src);
        hls.attachMedia(element);
      },
      (e: unknown) => setError(e),
    );
    return () => {
      stopped = true;
      destroy();
    };
  }, [src]);
  return (
    <>
      <video ref={video} class="preview" controls playsInline aria-label={label} />
      <Status error={error} />
    </>
  );
}
