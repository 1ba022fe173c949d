/**
 * The API's one error type and its wire form:
 * `{"error": {"code": "...", "message": "..."}}` (docs/api.md, errors).
 * Every refusal the API makes is an ApiError; the error handler
 * (api/plugins/errors.ts) maps anything else to a 500 without detail.
 */
export type ApiErrorCode =
  | 'INVALID_PARAMETER' // 400
  | 'BAD_REQUEST' // 400: not valid HTTP (malformed URL encoding, request line or header; no Host)
  | 'MISSING_KEY' // 401
  | 'INVALID_KEY' // 401
  | 'KEY_NOT_ALLOWED' // 403: widget key on weather.php, origin not allowed
  | 'PLAN_REQUIRED' // 403: field group, time= or San Marino above the key's plan
  | 'NOT_FOUND' // 404: no data for that time or place
  | 'METHOD_NOT_ALLOWED' // 405: an endpoint asked with a method it does not answer (HEAD on weather.php and widget.php, POST, CONNECT)
  | 'QUOTA_EXCEEDED' // 429
  | 'TOO_MANY_REQUESTS' // 429: flood guard on refused requests
  | 'DATA_NOT_AVAILABLE' // 503: product not ingested yet
  | 'SERVICE_UNAVAILABLE' // 503: quota store unreachable (docs/access.md)
  | 'REQUEST_TIMEOUT' // 408: request line and headers not received in time
  | 'REQUEST_TOO_LARGE' // 431: request line and headers over Node's 16 KiB
  | 'INTERNAL'; // 500

export const STATUS_OF: Record<ApiErrorCode, number> = {
  INVALID_PARAMETER: 400,
  BAD_REQUEST: 400,
  REQUEST_TIMEOUT: 408,
  REQUEST_TOO_LARGE: 431,
  MISSING_KEY: 401,
  INVALID_KEY: 401,
  KEY_NOT_ALLOWED: 403,
  PLAN_REQUIRED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  QUOTA_EXCEEDED: 429,
  TOO_MANY_REQUESTS: 429,
  DATA_NOT_AVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly headers: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = STATUS_OF[code];
  }
}

export interface ErrorBody {
  error: { code: ApiErrorCode; message: string };
}


/** One example message per code, for the API document (api/plugins/openapi.ts). */
const EXAMPLE_MESSAGE: Record<ApiErrorCode, string> = {
  INVALID_PARAMETER: "Invalid parameter 'lat': must be between 35 and 48, got 91",
  BAD_REQUEST: 'malformed HTTP request: the request line or a header is not valid HTTP/1.1',
  REQUEST_TIMEOUT: 'the request was not received in time',
  REQUEST_TOO_LARGE: 'the request line and headers exceed 16 KiB (Node.js limit): shorten the URL',
  MISSING_KEY: 'API key missing: pass api_key=<key> or the X-API-Key header',
  INVALID_KEY: 'API key revoked',
  KEY_NOT_ALLOWED: 'this is a widget key: it works on widget.php only',
  PLAN_REQUIRED: 'time: choosing the valid time, past or forecast, needs the Business plan (this key: Developer); without time= the answer is for now',
  NOT_FOUND: 'No data for the requested time (nwp covers 2026-11-25T00:00:00Z to 2026-11-27T00:00:00Z)',
  METHOD_NOT_ALLOWED: 'HEAD is not answered on /api/v1/weather.php (it would compute and spend quota): use GET',
  QUOTA_EXCEEDED: 'quota exceeded: 2 requests per minute on the Free plan; retry in 41 s',
  TOO_MANY_REQUESTS: 'too many refused requests; retry in 30 s',
  DATA_NOT_AVAILABLE: 'No nwp data has been published yet; try again after the next ingest',
  SERVICE_UNAVAILABLE: 'key store unavailable; retry shortly',
  INTERNAL: 'internal error',
};

/**
 * The JSON Schema of an error answer with HTTP status `status`: the shape
 * above, the codes that status can carry, and one example per code (for the
 * API document; Fastify's serialiser ignores enum and examples).
 */
export function errorResponseSchema(status: number): Record<string, unknown> {
  const codes = (Object.keys(STATUS_OF) as ApiErrorCode[]).filter((c) => STATUS_OF[c] === status);
  return {
    type: 'object',
    description: `error: ${codes.join(' or ')}`,
    properties: {
      error: {
        type: 'object',
        properties: { code: { type: 'string', enum: codes }, message: { type: 'string' } },
        required: ['code', 'message'],
      },
    },
    required: ['error'],
    examples: codes.map((code) => ({ error: { code, message: EXAMPLE_MESSAGE[code] } })),
  };
}
