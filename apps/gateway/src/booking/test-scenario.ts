import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { TEST_SCENARIOS, TestScenario } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { AuthenticatedRequest } from '../auth/api-family';

/**
 * The `X-Test-Scenario` header: honoured for sandbox keys only (an unknown
 * scenario is a 400 there), ignored whatever its value for live keys, so a
 * header left in from testing never breaks a live integration.
 */
export const TestScenarioHeader = createParamDecorator((_data: unknown, context: ExecutionContext): TestScenario | undefined => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  const value = request.headers['x-test-scenario'];
  if (value === undefined || !request.actor?.sandbox) return undefined;
  if (typeof value !== 'string' || !(TEST_SCENARIOS as readonly string[]).includes(value)) {
    throw DomainError.validation([{ field: 'X-Test-Scenario', message: `X-Test-Scenario must be one of ${TEST_SCENARIOS.join(', ')}` }]);
  }
  return value as TestScenario;
});
