/**
 * openapi-fetch JSON-encodes request bodies; multipart operations pass this as `bodySerializer` instead.
 * The FormData is handed to fetch as is, so fetch writes `Content-Type` with its boundary.
 */
export function formData(fields: Record<string, string | Blob>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}
