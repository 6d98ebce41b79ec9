/** Thrown when a signed URL no longer works; the caller gets fresh URLs and tries again. */
export class ExpiredUrlError extends Error {
  constructor(readonly status: number) {
    super(`Signed URL expired (${status})`);
  }
}
