/**
 * `text` as an address the panel may link to, load or play: an absolute `http:` or `https:` URL, never `javascript:`,
 * `data:` or another scheme a link could run or dress up (the panel holds the master key); undefined otherwise. Every link the panel builds
 * from data rather than from its own routes (`href`) goes through here.
 *
 * @example
 * httpAddress('https://cdn.example/videos'); // 'https://cdn.example/videos'
 * httpAddress('javascript:alert(1)'); // undefined
 */
export function httpAddress(text: string | undefined): string | undefined {
  if (!text) return undefined;
  try {
    const { protocol, href } = new URL(text);
    return protocol === 'http:' || protocol === 'https:' ? href : undefined;
  } catch {
    return undefined;
  }
}
