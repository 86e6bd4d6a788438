/**
 * Outcomes a sandbox key can force with the `X-Test-Scenario` header, so
 * integrators can prove their error handling. Live keys are never affected.
 */
export const TEST_SCENARIOS = ['price_changed', 'sold_out', 'supplier_pending', 'supplier_error', 'card_declined'] as const;
export type TestScenario = (typeof TEST_SCENARIOS)[number];
