import type { LightMyRequestResponse } from 'fastify';

/** An injected response with its body parsed as JSON when it is JSON (else the text). */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies are checked field by field
  body: any;
  text: string;
}

export function answerOf(response: LightMyRequestResponse): Answer {
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    body = response.body;
  }
  return { status: response.statusCode, headers: response.headers, body, text: response.body };
}
