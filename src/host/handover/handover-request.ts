import { timingSafeEqual } from 'node:crypto';
import { isAbsolute } from 'node:path';

/** The path the hand-over listener answers on; nothing else is served. */
export const HANDOVER_PATH = '/handover';

/** Largest hand-over body read; a longer one is refused before it is parsed. */
export const MAX_HANDOVER_BYTES = 16 * 1024;

/** Longest scene path taken. */
const MAX_PATH_LENGTH = 4096;

const SCENE_FILE = /\.(blend|zip)$/i;

/** What the listener looks at before reading a request's body. */
export interface HandoverHead {
  method: string | undefined;
  /** The request target (path and query). */
  url: string | undefined;
  host: string | undefined;
  origin: string | undefined;
  /** `Sec-Fetch-Site`: browsers send it on every request a page makes. */
  fetchSite: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
}

/** A refused request: its status and one line saying why. */
export interface HandoverRefusal {
  status: 400 | 401 | 403 | 404 | 405 | 413 | 415 | 421 | 422;
  error: string;
}

/** Compares two secrets in constant time (for equal lengths; a different length is simply unequal). */
export function sameToken(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a hand-over's head: no browser (an Origin or Sec-Fetch-Site header means a web page sent it),
 * Host 127.0.0.1 or localhost on our port (no DNS rebinding), `POST /handover` only, the bearer token,
 * and a JSON body. Null when the body may be read.
 */
export function checkHandoverHead(head: HandoverHead, options: { port: number; token: string }): HandoverRefusal | null {
  const refused = checkCaller(head, options);
  if (refused) return refused;
  const path = (head.url ?? '').split('?')[0];
  if (path !== HANDOVER_PATH) return { status: 404, error: 'Not found.' };
  if (head.method !== 'POST') return { status: 405, error: 'Only POST is accepted here.' };
  const match = /^Bearer ([A-Za-z0-9_-]{1,512})$/.exec(head.authorization ?? '');
  if (!match || !sameToken(match[1]!, options.token)) return { status: 401, error: 'The hand-over secret is missing or wrong.' };
  if (!/^application\/json\s*(;|$)/i.test(head.contentType ?? '')) return { status: 415, error: 'Send the scene as application/json.' };
  return null;
}

/** No browser, our Host, the bearer token: what every request to the listener must pass. */
function checkCaller(head: HandoverHead, options: { port: number; token: string }): HandoverRefusal | null {
  if (head.origin !== undefined || head.fetchSite !== undefined) return { status: 403, error: 'Web pages may not hand scenes to Renderdrop.' };
  const host = head.host?.toLowerCase();
  if (host !== `127.0.0.1:${options.port}` && host !== `localhost:${options.port}`) return { status: 421, error: 'This listener only answers on 127.0.0.1.' };
  return null;
}

/** Where the add-on reads how a handed-over submission is doing: `GET /handover/submissions/<id>`. */
export const FOLLOW_PATH = /^\/handover\/submissions\/([A-Za-z0-9_-]{1,100})$/;

/**
 * Checks a request for a handed-over submission's progress (`GET /handover/submissions/<id>` with the
 * bearer token, no browser): the submission id, or why it is refused; null when it is not such a request.
 */
export function checkFollowHead(head: HandoverHead, options: { port: number; token: string }): { submissionId: string } | HandoverRefusal | null {
  const found = FOLLOW_PATH.exec((head.url ?? '').split('?')[0] ?? '');
  if (!found) return null;
  const refused = checkCaller(head, options);
  if (refused) return refused;
  if (head.method !== 'GET') return { status: 405, error: 'Only GET is accepted here.' };
  const match = /^Bearer ([A-Za-z0-9_-]{1,512})$/.exec(head.authorization ?? '');
  if (!match || !sameToken(match[1]!, options.token)) return { status: 401, error: 'The hand-over secret is missing or wrong.' };
  return { submissionId: found[1]! };
}

/**
 * The scene a hand-over body names: `{"scene": "<absolute path of a .blend or .zip>"}`, nothing else.
 * Whether the file exists is checked afterwards, on disk.
 */
export function sceneFromBody(text: string): { scene: string } | HandoverRefusal {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { status: 400, error: 'The body is not JSON.' };
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { status: 400, error: 'The body must be {"scene": "<path>"}.' };
  const scene = (body as Record<string, unknown>).scene;
  if (typeof scene !== 'string' || scene.length === 0) return { status: 400, error: 'The body names no scene.' };
  if (scene.length > MAX_PATH_LENGTH || scene.includes('\0')) return { status: 400, error: 'The scene path is not a usable path.' };
  if (!isAbsolute(scene)) return { status: 400, error: 'The scene path must be absolute.' };
  if (!SCENE_FILE.test(scene)) return { status: 400, error: 'Only .blend and .zip files can be sent.' };
  return { scene };
}
