import { ValidationPipe } from '@nestjs/common';
import { DomainError, flattenValidationErrors } from './domain-error';
import { cacheValidationMetadata } from './validation-metadata-cache';

/**
 * The validation both the gateway (HTTP DTOs) and every service (contract classes
 * arriving over NATS) apply: unknown fields are rejected, values are converted to
 * the declared classes, and failures become one VALIDATION_FAILED error.
 */
export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validateCustomDecorators: false,
    exceptionFactory: (errors) => DomainError.validation(flattenValidationErrors(errors)),
  });
}
