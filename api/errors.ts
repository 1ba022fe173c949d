/**
 * The API's one error type and its wire form:
 * `{"error": {"code": "...", "message": "..."}}` (DESIGN.md, API contract).
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
  | 'METHOD_NOT_ALLOWED' // 405: an endpoint asked with a method it does not answer (HEAD on weather.php)
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

export const errorBodySchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
} as const;
