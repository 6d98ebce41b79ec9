import { z } from 'zod';

/** Whether `text` is an absolute http or https URL. */
export function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:';
}

/**
 * A URL the server hands out for the client to fetch or send to (a presigned upload, a signed
 * download): an absolute http or https URL. Anything else is the server's error, said in those words.
 */
export const httpUrlSchema = z.string().refine(isHttpUrl, { error: 'the server returned an invalid URL' });
