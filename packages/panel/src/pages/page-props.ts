/** Props of every page: the URL segments after the page's name (the selection), decoded. */
export interface PageProps {
  params: string[];
}
