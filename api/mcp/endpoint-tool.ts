import type { TObject, TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { FreeText } from '../../engines/grammars/free-text.ts';
import type { CallOutcome } from './call-gate.ts';
import { checkToolInput, splitArgs } from './tool-input.ts';
import { jsonAnswer, READ_ONLY, type McpTool, type ToolAnnotations, type ToolAnswer, type ToolContext } from './tool.ts';

/** The checked parts of one endpoint call, as the HTTP route would have them after validation. */
export interface EndpointInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  /** Free text read once (the geocode routes'): the capability table and the search share it. */
  freeText: readonly FreeText[] | null;
  /** What `readRaw` made of the arguments as sent. */
  raw: unknown;
}

export interface EndpointToolSpec {
  name: string;
  title: string;
  description: string;
  annotations?: ToolAnnotations;
  method: 'GET' | 'POST';
  route: string;
  /** The route's own schemas; a tool's arguments are its params and querystring members side by side, or its body. */
  params?: TObject;
  query?: TObject;
  body?: TObject;
  /** The route's 200 schema: the answer is serialized by it, as the HTTP reply is. */
  response: TSchema;
  /** For an answer that is a JSON array: the member of structuredContent that carries it. */
  wrap?: string;
  /**
   * Reads the arguments as sent, before the schema check could coerce them (42 into "42"), where the
   * HTTP route reads its raw body in preValidation: its refusal comes in the same order and is metered alike.
   */
  readRaw?: (args: Record<string, unknown>) => unknown;
  /** Reads the free text of the call (geocode routes) before the capability check. */
  freeText?: (input: EndpointInput) => readonly FreeText[];
  /** The endpoint's answer: the facade's value (or JSON text already made, as routing's), and what it bills. */
  answer(input: EndpointInput, context: ToolContext): Promise<CallOutcome<unknown>>;
}

const EMPTY = Type.Object({});

/** The object schema a tool takes: the route's params and querystring members side by side, or its body. */
function inputSchemaOf(spec: EndpointToolSpec): TObject {
  if (spec.body) return spec.body;
  const params = spec.params ?? EMPTY;
  const query = spec.query ?? EMPTY;
  const properties = { ...params.properties, ...query.properties };
  // A member with a default is optional to the caller, whatever the route's schema says.
  const required = [...(params.required ?? []), ...(query.required ?? [])].filter((name) => (properties as Record<string, { default?: unknown }>)[name]?.default === undefined);
  return Type.Object(properties, { required, additionalProperties: false });
}

/** MCP's outputSchema is an object schema: an array answer goes under `wrap`, a union of objects is said to be an object. */
function outputSchemaOf(spec: EndpointToolSpec): TObject {
  if (spec.wrap) return Type.Object({ [spec.wrap]: spec.response }, { required: [spec.wrap] });
  const { anyOf } = spec.response as { anyOf?: TSchema[] };
  if (spec.response.type !== 'object' && anyOf !== undefined) return Type.Unsafe({ type: 'object', anyOf }) as unknown as TObject;
  return spec.response as TObject;
}

const PATH_PARAM = /:([A-Za-z_]+)/g;

/** The concrete path of the call: the route with its parameters filled as a client would encode them. */
function pathOf(route: string, args: Record<string, unknown>): string {
  return route.replace(PATH_PARAM, (_, name: string) => encodeURIComponent(String(args[name] ?? '')));
}

/** A tool that is exactly one call of one HTTP endpoint. */
export function endpointTool(spec: EndpointToolSpec): McpTool {
  const outputSchema = outputSchemaOf(spec);
  const fixedEndpoint = spec.route.includes(':') ? null : { method: spec.method, route: spec.route, path: spec.route };
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: inputSchemaOf(spec),
    outputSchema,
    annotations: spec.annotations ?? READ_ONLY,
    async run(args, context): Promise<ToolAnswer> {
      const { request } = context;
      const endpoint = fixedEndpoint ?? { method: spec.method, route: spec.route, path: pathOf(spec.route, args) };
      let input: EndpointInput;
      const value = await context.gate.call(endpoint, () => {
        const raw = spec.readRaw?.(args);
        const [paramArgs, queryArgs] = spec.params ? splitArgs(args, spec.params) : [{}, args];
        input = {
          params: spec.params ? checkToolInput(request, spec.params, 'params', paramArgs) : {},
          query: spec.query ? checkToolInput(request, spec.query, 'querystring', queryArgs) : {},
          body: spec.body ? checkToolInput(request, spec.body, 'body', args) : {},
          freeText: null,
          raw,
        };
        input.freeText = spec.freeText?.(input) ?? null;
        return input;
      }, () => spec.answer(input, context));
      const text = typeof value === 'string' ? value : context.reply.compileSerializationSchema(spec.response as Record<string, unknown>, '200')(value as Record<string, unknown>);
      return jsonAnswer(text, spec.wrap);
    },
  };
}
