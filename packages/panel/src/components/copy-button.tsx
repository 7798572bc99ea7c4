import { useState } from 'preact/hooks';

/**
 * Copies `text` to the clipboard; `label` names what is copied for screen readers ("Copy client key"), `caption` is
 * the button's text ("Copy" unless given).
 */
export function CopyButton({ text, label, caption = 'Copy' }: { text: string; label: string; caption?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await copyText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button type="button" class="copy" aria-label={label} title={label} onClick={copy}>
      {copied ? 'Copied' : caption}
      <span class="visually-hidden" aria-live="polite">
        {copied ? 'copied' : ''}
      </span>
    </button>
  );
}

/** The clipboard API needs a secure context (localhost is one); a server reached over plain HTTP by address is not. */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && isSecureContext) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}
