import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, FieldError } from '@hotel/contracts';
import { DomainError, HTTP_STATUS_BY_CODE } from '@hotel/platform';

export interface ErrorEnvelope {
  data: null;
  success: false;
  message: string;
  code: ErrorCode;
  errors?: FieldError[];
}

const CODE_BY_HTTP_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Fastify's own errors (body parsing, limits) carry a `statusCode` and an `FST_*` code. */
function fromFastifyError(error: { statusCode?: number; code?: string; message?: string }): DomainError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError('PAYLOAD_TOO_LARGE', 'request body is larger than 1 MiB');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new DomainError('UNSUPPORTED_MEDIA_TYPE', 'request body must be JSON (Content-Type: application/json)');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new DomainError('VALIDATION_FAILED', 'request body is empty but Content-Type is application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError('VALIDATION_FAILED', 'request body is not valid JSON');
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new DomainError('VALIDATION_FAILED', 'request body is not valid JSON');
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new DomainError(CODE_BY_HTTP_STATUS[error.statusCode] ?? 'VALIDATION_FAILED', error.message ?? 'bad request');
  }
  return null;
}

function toDomainError(exception: unknown): DomainError | null {
  if (exception instanceof DomainError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return new DomainError('NOT_FOUND', 'no such route');
    const code = CODE_BY_HTTP_STATUS[status];
    return code ? new DomainError(code, exception.message) : null;
  }
  if (typeof exception === 'object' && exception !== null) return fromFastifyError(exception);
  return null;
}

/**
 * The one place errors become HTTP: status from the error code, the error
 * envelope of the specification plus `code` (and per-field `errors`), and
 * `Retry-After` where a retry later may succeed. Anything unexpected is logged
 * with the request id and answered as a generic 500.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    let error = toDomainError(exception);
    if (!error) {
      this.logger.error({
        msg: 'unhandled error',
        requestId: request?.id,
        error: exception instanceof Error ? exception.message : String(exception),
        stack: exception instanceof Error ? exception.stack : undefined,
      });
      error = new DomainError('INTERNAL_ERROR', 'internal error; retry with exponential backoff');
    }
    sendError(reply, error);
  }
}

/** The error envelope of a DomainError. */
export function errorEnvelope(error: DomainError): ErrorEnvelope {
  const body: ErrorEnvelope = { data: null, success: false, message: error.message, code: error.code };
  if (error.errors?.length) body.errors = error.errors;
  return body;
}

/** The error each answer that was one carried, for the access log (by the raw response: one per request). */
const answeredErrors = new WeakMap<object, { code: ErrorCode; message: string }>();

/** The error code and message an answer carried, if it was an error answer (sendError). */
export function answeredError(reply: FastifyReply): { code: ErrorCode; message: string } | undefined {
  return answeredErrors.get(reply.raw);
}

/** Answers with the error envelope: status from the code, `Retry-After` when given, never cached. */
export function sendError(reply: FastifyReply, error: DomainError): void {
  const body = errorEnvelope(error);
  answeredErrors.set(reply.raw, { code: error.code, message: error.message });
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  // A route that answers PDF or raw JSON may have set its own content type and caching already.
  reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store');
  // Serialized here, so the envelope hook does not wrap the error envelope again.
  reply.status(HTTP_STATUS_BY_CODE[error.code]).send(JSON.stringify(body));
}
