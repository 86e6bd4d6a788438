export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerSettings {
  /** Consecutive failures (no answer, a timeout, 5xx, an unreadable answer) that open it. */
  failureThreshold: number;
  /** How long it stays open before letting one probe through. */
  cooldownMs: number;
}

export interface BreakerHealth {
  state: BreakerState;
  /** Consecutive failures so far (0 after a success). */
  failures: number;
  /** When it last opened; null while closed. */
  openedAt: Date | null;
}

/**
 * One operation's circuit breaker. Closed: requests go. Open: they fail at once, without
 * touching the network, for `cooldownMs`. Then half-open: one request goes as a probe (the
 * others still fail at once); its success closes the breaker, its failure opens it again.
 */
export class CircuitBreaker {
  private state: BreakerState = 'closed';
  private failures = 0;
  private openedAt: number | null = null;
  private probing = false;

  constructor(
    private readonly settings: BreakerSettings,
    private readonly now: () => number,
    private readonly onStateChange?: (state: BreakerState) => void,
  ) {}

  /** Whether a request may be sent now. In half-open the first caller gets the probe; call `succeeded` or `failed` after. */
  tryAcquire(): boolean {
    this.wakeIfCooled();
    if (this.state === 'closed') return true;
    if (this.state === 'open' || this.probing) return false;
    this.probing = true;
    return true;
  }

  /** The vendor answered (any documented answer, a refusal included). */
  succeeded(): void {
    this.failures = 0;
    this.probing = false;
    this.openedAt = null;
    this.moveTo('closed');
  }

  failed(): void {
    this.failures += 1;
    this.probing = false;
    // A late failure of a request sent before the breaker opened does not prolong the cooldown.
    if (this.state === 'half-open' || (this.state === 'closed' && this.failures >= this.settings.failureThreshold)) {
      this.openedAt = this.now();
      this.moveTo('open');
    }
  }

  /** The request was not sent after all (the deadline passed before it could start). */
  released(): void {
    this.probing = false;
  }

  health(): BreakerHealth {
    this.wakeIfCooled();
    return { state: this.state, failures: this.failures, openedAt: this.openedAt === null ? null : new Date(this.openedAt) };
  }

  private wakeIfCooled(): void {
    if (this.state === 'open' && this.openedAt !== null && this.now() - this.openedAt >= this.settings.cooldownMs) this.moveTo('half-open');
  }

  private moveTo(state: BreakerState): void {
    if (state === this.state) return;
    this.state = state;
    this.onStateChange?.(state);
  }
}
