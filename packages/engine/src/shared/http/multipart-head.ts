import { ApiError, ErrorCode, badRequest } from '../errors.js';

// What is checked of a multipart body before any of its bytes is parsed. Kept apart from the parser
// (multipart.ts), which is loaded with the first multipart body: msw's page never fetches it unless it uploads.

/** 413 for a multipart body over its limit (config `maxUploadBytes`). */
export function tooLarge(limit: number): ApiError {
  return new ApiError(413, ErrorCode.PAYLOAD_TOO_LARGE, `upload is larger than ${limit} bytes`);
}

/** The boundary of a `multipart/form-data` Content-Type (400 for any other type). */
export function boundaryOf(contentType: string | undefined): string {
  const match = /^multipart\/form-data\s*;(?:.*;)?\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(
    contentType ?? '',
  );
  if (!match)
    throw badRequest(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'the upload must be multipart/form-data with a boundary');
  return (match[1] ?? match[2])!;
}
