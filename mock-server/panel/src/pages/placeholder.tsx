/** Stands in for a page whose module has not landed yet. */
export default function PlaceholderPage() {
  return <p>This page is not built yet.</p>;
}
