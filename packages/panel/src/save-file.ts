/**
 * Hands a file made in the page to the browser as a download named `name` (an object URL, freed once the download
 * has had time to start).
 *
 * @example
 * saveFile(new Blob([json], { type: 'application/json' }), 'state.json');
 */
export function saveFile(blob: Blob, name: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** The time now as it goes into a file name: `2025-03-01T12-00-00`. */
export const fileTime = (): string => new Date().toISOString().slice(0, 19).replace(/:/g, '-');
