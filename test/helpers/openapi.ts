import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { ROOT } from './cli';

/** The path of docs/openapi.yaml. */
export const OPENAPI_PATH = join(ROOT, 'docs', 'openapi.yaml');

type ResponseObject = { $ref?: string; content?: Record<string, unknown> };
type Doc = {
  paths: Record<string, Record<string, { responses?: Record<string, ResponseObject> }>>;
  components: { responses: Record<string, ResponseObject> };
};

/** A response as the test saw it. */
export interface SeenResponse {
  method: string;
  /** The URL path from the server's root: `/api/external/v1/jobs/...` for API calls, `/storage/...` for storage. */
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks responses against docs/openapi.yaml: the path and method must be documented, the status must
 * be one of the operation's responses, and a JSON body must match that response's schema.
 */
export class OpenApiChecker {
  readonly doc: Doc;
  private readonly ajv: Ajv2020;
  private readonly templates: { template: string; pattern: RegExp }[];
  /** `METHOD template status` of every response checked, to see what a test covered. */
  readonly covered = new Set<string>();

  constructor(path = OPENAPI_PATH) {
    const parsed: unknown = parse(readFileSync(path, 'utf8'));
    this.doc = parsed as Doc;
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...(parsed as object), $id: 'openapi' });
    this.templates = Object.keys(this.doc.paths)
      .map((template) => ({
        template,
        params: (template.match(/\{/g) ?? []).length,
        pattern: new RegExp(`^${template.replace(/\{file\}/g, '.+').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }))
      .sort((a, b) => a.params - b.params);
  }

  /** The problems of one response; empty when it matches the document. */
  problems(seen: SeenResponse): string[] {
    const method = seen.method.toLowerCase();
    const match = this.templates.find((t) => t.pattern.test(seen.path) && this.doc.paths[t.template]![method]);
    if (!match) return [`${seen.method} ${seen.path} is not in the document`];
    const operation = this.doc.paths[match.template]![method]!;
    const status = String(seen.status);
    const listed = operation.responses?.[status];
    if (!listed) return [`${seen.method} ${match.template} answered ${status}, which the document does not list`];
    const shared = listed.$ref?.replace('#/components/responses/', '');
    const response = shared ? this.doc.components.responses[shared]! : listed;
    const base = shared ? `openapi#/components/responses/${shared}` : `openapi#/paths/${escapePointer(match.template)}/${method}/responses/${status}`;
    this.covered.add(`${seen.method.toUpperCase()} ${match.template} ${status}`);
    const json = seen.contentType?.startsWith('application/json');
    if (!response.content) return json && seen.body !== null && seen.body !== '' ? [`${seen.method} ${match.template} ${status} has a body the document does not describe`] : [];
    const fits = (type: string) => (type.endsWith('/*') ? seen.contentType?.startsWith(type.slice(0, -1)) : seen.contentType?.startsWith(type));
    if (!json) return Object.keys(response.content).some(fits) ? [] : [`${seen.method} ${match.template} ${status}: content type ${seen.contentType}`];
    if (!response.content['application/json']) return [`${seen.method} ${match.template} ${status}: JSON where the document has none`];
    const pointer = `${base}/content/application~1json/schema`;
    const validate = this.ajv.getSchema(pointer);
    if (!validate) return [`no schema at ${pointer}`];
    if (validate(seen.body)) return [];
    return (validate.errors ?? []).map((e) => `${seen.method} ${match.template} ${status}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }

  /** Every `METHOD template` the document describes. */
  operations(): string[] {
    return Object.entries(this.doc.paths).flatMap(([template, item]) =>
      Object.keys(item)
        .filter((k) => ['get', 'put', 'post', 'delete', 'patch', 'head'].includes(k))
        .map((m) => `${m.toUpperCase()} ${template}`),
    );
  }
}
