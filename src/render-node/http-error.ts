/** An error that becomes one `{"error":{"code","message"}}` response with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  /** The response body. */
  body(): { error: { code: string; message: string } & Record<string, unknown> } {
    return { error: { ...this.details, code: this.code, message: this.message } };
  }
}

export const badRequest = (code: string, message: string, details?: Record<string, unknown>) =>
  new HttpError(400, code, message, {}, details);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
export const forbidden = (code: string, message: string) => new HttpError(403, code, message);
